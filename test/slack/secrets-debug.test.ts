/**
 * No key reaches the log, even at LOG_LEVEL=debug: Bolt and the Web API client log whole payloads at
 * debug — a `link` form's submission carries the key being linked. Through the real Bolt app in HTTP mode and
 * in Socket Mode, with a key shaped unlike `fl_live_…` (a real service's keys need not match any pattern): the
 * SDKs are capped at info and every key a client was built for is masked verbatim.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { demoTeam } from '../../src/simulator/index.js';
import { fixture, type SlackWorld, slackWorld, TEAM } from './world.js';

/** A team key of the shape a real service might hand out; no pattern in the logger knows it. */
const SHAPELESS_KEY = 'sk9Qz4WmT7pLx2VbN8cRf3HjK6dYs5Ge';
const APP_TOKEN =
  'xapp-1-A0REELBOT-7141926741253-0f2b7c1e9d8a6b5c3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d';

let w: SlackWorld;
afterEach(() => w.close());

const team = () => ({ ...demoTeam(SHAPELESS_KEY), name: 'Shapeless Team' });

function expectNoKeyInLogs(): void {
  const logs = w.h.logs.join('');
  expect(logs.length).toBeGreaterThan(0);
  expect(w.h.logs.some((l) => l.includes('"level":20'))).toBe(true); // debug lines were written
  expect(logs).not.toContain(SHAPELESS_KEY);
  // The SDKs said nothing at debug: their payload dumps never reach the log, masked or not.
  const sdkDebug = w.h.logs.filter((l) => l.includes('"level":20') && l.includes('"sdk":"slack"'));
  expect(sdkDebug).toEqual([]);
}

describe('secrets at debug level', () => {
  it('HTTP mode: linking a key leaves no trace of it in the log', async () => {
    w = await slackWorld({ harness: { teams: [team()] } });
    await w.command('link', { user: 'U02BOB' });
    await w.fake.waitFor(() => w.modals().at(-1), 'the link form');
    const { ack } = await w.submit({ key: SHAPELESS_KEY }, { user: 'U02BOB' });
    expect(JSON.stringify(ack ?? {})).not.toContain(SHAPELESS_KEY);
    await w.fake.waitFor(() => w.h.store.keys.get(`slack:${TEAM}:U02BOB`), 'the link');
    expectNoKeyInLogs();
  });

  it('Socket Mode: the same, with the submission arriving over the socket', async () => {
    w = await slackWorld({ slack: { appToken: APP_TOKEN }, harness: { teams: [team()] } });
    await w.fake.waitFor(() => w.fake.socketConnections === 1, 'a Socket Mode connection');
    const command = fixture<{ envelope_id: string; payload: Record<string, string> }>(
      'socket-slash-command.json',
    );
    command.envelope_id = 'env-link-command';
    Object.assign(command.payload, { text: 'link', user_id: 'U02BOB', user_name: 'bob' });
    w.fake.sendSocket(command as unknown as Record<string, unknown>);
    const view = await w.fake.waitFor(() => w.modals().at(-1), 'the link form');

    const submission = fixture<Record<string, unknown> & { view: Record<string, unknown> }>(
      'view-submission.json',
    );
    submission.user = { id: 'U02BOB', username: 'bob', name: 'bob', team_id: TEAM };
    const block = (
      view.blocks as { type: string; block_id?: string; element?: { action_id: string } }[]
    ).find((b) => b.type === 'input');
    if (!block?.block_id || !block.element) throw new Error('no input in the link form');
    submission.view = {
      ...submission.view,
      ...view,
      state: {
        values: {
          [block.block_id]: { [block.element.action_id]: { type: 'plain_text_input', value: SHAPELESS_KEY } },
        },
      },
    };
    w.fake.sendSocket({
      envelope_id: 'env-link-submit',
      type: 'interactive',
      payload: submission,
      accepts_response_payload: true,
    });
    await w.fake.waitFor(() => w.h.store.keys.get(`slack:${TEAM}:U02BOB`), 'the link');
    expectNoKeyInLogs();
  });
});
