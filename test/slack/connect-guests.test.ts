/**
 * Slack Connect guests on the real Bolt app: mallory, a member of another organisation in the shared channels
 * and an admin of her own (`users.info` is_admin), changes none of this workspace's configuration — her
 * admin flag counts for nothing here, and her organisation is not an allowed one. Both simulator profiles.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOME_UNSUBSCRIBE_ACTION } from '../../src/core/home/home.js';
import { text } from '../core/approvals/scenario-kit.js';
import { createSlackDriver, type SlackScenarioDriver } from './approvals-driver.js';
import { CHANNELS, TEAM } from './approvals-payloads.js';

describe.each(['spec', 'real'] as const)('Slack Connect guests, %s profile', (profile) => {
  let d: SlackScenarioDriver;
  beforeEach(async () => {
    d = await createSlackDriver({ profile });
  });
  afterEach(async () => d.close());

  it('a guest who is an admin of her own organisation cannot unsubscribe a channel here', async () => {
    const subscribed = await d.run('alice', 'subscribe calendar');
    expect(text(subscribed)).toMatch(/calendar/i);
    // The dashboard's Unsubscribe button for #video-team, clicked by the guest (her click says her team).
    const refused = await d.click('mallory', {
      action: HOME_UNSUBSCRIBE_ACTION,
      value: `calendar||slack:${TEAM}:${CHANNELS.main.id}`,
      label: 'Unsubscribe',
    });
    expect(text(refused)).toContain('Only members of this workspace change its settings and subscriptions');
    // Her profile said admin: the adapter read it, and the core gave it no weight.
    expect(d.fake.callsOf('users.info').some((c) => JSON.stringify(c).includes(d.ids.mallory))).toBe(true);
    const still = await d.run('dave', 'unsubscribe calendar');
    expect(text(still), 'the subscription is still there').not.toMatch(/doesn't follow/);
  });
});
