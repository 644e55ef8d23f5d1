/**
 * User group membership for approvers and roles (`memberOf: ['slack-group:S…']`): the real WebClient
 * against the fake Slack's `usergroups.list`, on virtual time. One call per workspace per 5 minutes,
 * concurrent lookups share it, disabled groups do not count, and a failing lookup never blocks a command.
 */
import { Writable } from 'node:stream';
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GROUPS_FAILURE_TTL_MS, GROUPS_TTL_MS, SlackGroups } from '../../adapters/slack/groups.js';
import { createLogger } from '../../src/observability/logger.js';
import { TestClock } from '../support/harness.js';
import { FakeSlack } from './fake-slack.js';

let fake: FakeSlack;
let client: webApi.WebClient;
let clock: TestClock;
let logs: string[];
let groups: SlackGroups;

beforeEach(async () => {
  fake = await FakeSlack.start({
    usergroups: [
      { id: 'S0REVIEW', handle: 'reviewers', name: 'Reviewers', users: ['U05ERIN', 'U02BOB'] },
      { id: 'S0LEADS', handle: 'leads', name: 'Leads', users: ['U02BOB'] },
      { id: 'S0OLD', handle: 'old', name: 'Old', users: ['U04DAVE'], disabled: true },
    ],
  });
  client = new webApi.WebClient('xoxb-test', {
    slackApiUrl: fake.apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    logLevel: webApi.LogLevel.ERROR,
  });
  clock = new TestClock();
  logs = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk, _enc, cb) {
        logs.push(String(chunk));
        cb();
      },
    }),
  });
  groups = new SlackGroups(clock, logger);
});
afterEach(() => fake.close());

const calls = () => fake.callsOf('usergroups.list');

describe('Slack user groups of a user', () => {
  it('reads usergroups.list with users once, and maps each user to their groups', async () => {
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual(['slack-group:S0REVIEW']);
    expect(await groups.memberOf(client, 'T0001', 'U02BOB')).toEqual([
      'slack-group:S0REVIEW',
      'slack-group:S0LEADS',
    ]);
    expect(await groups.memberOf(client, 'T0001', 'U01ALICE')).toEqual([]);
    // A disabled group does not make its members approvers.
    expect(await groups.memberOf(client, 'T0001', 'U04DAVE')).toEqual([]);
    expect(calls()).toHaveLength(1);
    expect(calls()[0]?.args).toMatchObject({ include_users: true });
    expect(calls()[0]?.args.include_disabled).not.toBe(true);
  });

  it('caches for 5 minutes per workspace, then sees membership changes', async () => {
    await groups.memberOf(client, 'T0001', 'U01ALICE');
    fake.usergroups[0]?.users.push('U01ALICE');
    clock.advance(GROUPS_TTL_MS - 1);
    expect(await groups.memberOf(client, 'T0001', 'U01ALICE')).toEqual([]);
    expect(calls()).toHaveLength(1);

    clock.advance(1);
    expect(await groups.memberOf(client, 'T0001', 'U01ALICE')).toEqual(['slack-group:S0REVIEW']);
    expect(calls()).toHaveLength(2);

    // Another workspace has its own map.
    await groups.memberOf(client, 'T0002', 'U01ALICE');
    expect(calls()).toHaveLength(3);
  });

  it('shares one call between concurrent lookups', async () => {
    const all = await Promise.all(
      ['U05ERIN', 'U02BOB', 'U01ALICE', 'U05ERIN'].map((u) => groups.memberOf(client, 'T0001', u)),
    );
    expect(all.map((g) => g.length)).toEqual([1, 2, 0, 1]);
    expect(calls()).toHaveLength(1);
  });

  it('returns copies: a caller cannot change the cached membership', async () => {
    const mine = await groups.memberOf(client, 'T0001', 'U05ERIN');
    mine.push('slack-group:S0FORGED');
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual(['slack-group:S0REVIEW']);
  });

  it('a workspace without user groups (free plan) counts nobody in a group, says so once, retries a minute later', async () => {
    fake.fail('usergroups.list', { error: 'plan_upgrade_required' }, 2);
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual([]);
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual([]);
    expect(calls()).toHaveLength(1);
    clock.advance(GROUPS_FAILURE_TTL_MS);
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual([]);
    expect(calls()).toHaveLength(2);
    expect(logs.filter((l) => l.includes('plan_upgrade_required'))).toHaveLength(1);

    // Upgraded: the next read after the failure's minute finds the groups.
    clock.advance(GROUPS_FAILURE_TTL_MS);
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual(['slack-group:S0REVIEW']);
  });

  it('an install without usergroups:read is told to reinstall', async () => {
    fake.fail('usergroups.list', { error: 'missing_scope' });
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual([]);
    const line = logs.find((l) => l.includes('missing_scope'));
    expect(line).toContain('reinstall the app to grant usergroups:read');
  });

  it('membership read within 5 minutes is verified; a failing refresh leaves it unverified, never trusted', async () => {
    expect(await groups.membership(client, 'T0001', 'U05ERIN')).toEqual({
      groups: ['slack-group:S0REVIEW'],
      verified: true,
    });
    clock.advance(GROUPS_TTL_MS);
    fake.fail('usergroups.list', { error: 'internal_error' }, 2);
    expect((await groups.membership(client, 'T0001', 'U05ERIN')).verified).toBe(false);
    // Never read at all: unverified too.
    expect((await groups.membership(client, 'T0003', 'U05ERIN')).verified).toBe(false);
    // A free plan has no groups: "in none" is a verified answer.
    fake.fail('usergroups.list', { error: 'plan_upgrade_required' });
    expect(await groups.membership(client, 'T0004', 'U05ERIN')).toEqual({ groups: [], verified: true });
  });

  it('keeps the last map while Slack rate-limits the refresh, and tries again a minute later', async () => {
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual(['slack-group:S0REVIEW']);
    clock.advance(GROUPS_TTL_MS);
    fake.fail('usergroups.list', { retryAfter: 30 });
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual(['slack-group:S0REVIEW']);
    expect(calls()).toHaveLength(2);
    clock.advance(GROUPS_FAILURE_TTL_MS - 1);
    await groups.memberOf(client, 'T0001', 'U05ERIN');
    expect(calls()).toHaveLength(2);
    clock.advance(1);
    fake.usergroups[0]?.users.splice(0);
    expect(await groups.memberOf(client, 'T0001', 'U05ERIN')).toEqual([]);
    expect(calls()).toHaveLength(3);
  });
});
