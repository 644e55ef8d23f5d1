/**
 * The composition root with Slack configured (`startApp` with SLACK_* variables, as `npm start` would): the
 * adapter is mounted on the one HTTP server next to /healthz, the playground is off, and a confirmed create
 * reaches the channel through the real runner's outbox (nudged after the click), not only in tests' flushes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/main.js';
import { FakeSlack } from './fake-slack.js';
import {
  ALICE,
  BOT_TOKEN,
  blocksText,
  findElement,
  fixture,
  SIGNING_SECRET,
  sign,
  slackEscape,
} from './world.js';

let fake: FakeSlack;
let app: RunningApp;
let dataDir: string;
beforeAll(async () => {
  fake = await FakeSlack.start({ users: { [ALICE]: { name: 'alice', tz: 'Europe/Paris' } } });
  dataDir = mkdtempSync(join(tmpdir(), 'reelbot-slack-app-'));
  app = await startApp({
    REELBOT_DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: 'silent',
    SIM_SPEED: '60',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
  });
}, 30_000);
afterAll(async () => {
  await app?.stop();
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(body: string): Promise<number> {
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(`${app.url}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': sign(body, timestamp),
    },
    body,
  });
  return res.status;
}

describe('npm start with Slack configured', () => {
  it('serves /slack/events beside /healthz and delivers cards through the outbox', async () => {
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    expect(fake.callsOf('auth.test')[0]?.token).toBe(BOT_TOKEN);
    expect((await fetch(`${app.url}/`)).status).toBe(404); // no playground

    const payload = fixture<Record<string, string>>('slash-command.json');
    const responseUrl = fake.responseUrl();
    Object.assign(payload, {
      text: slackEscape('create --model motion_lite --name "Moon" Ten seconds about the moon landing.'),
      response_url: responseUrl,
    });
    expect(await post(new URLSearchParams(payload).toString())).toBe(200);
    const confirm = await fake.waitFor(() => fake.responsesTo(responseUrl)[0], 'the cost confirmation');

    const button = findElement(confirm.blocks as unknown[], 'video.create.confirm');
    const click = fixture<Record<string, unknown>>('block-actions.json');
    const clickUrl = fake.responseUrl();
    Object.assign(click, {
      container: {
        type: 'message',
        message_ts: '1700000001.000100',
        channel_id: 'C0VIDEOS',
        is_ephemeral: true,
      },
      response_url: clickUrl,
      actions: [
        {
          type: 'button',
          action_id: button.action_id,
          block_id: 'b1',
          text: button.text,
          value: button.value,
          action_ts: '1700000012.345678',
        },
      ],
    });
    expect(await post(`payload=${encodeURIComponent(JSON.stringify(click))}`)).toBe(200);
    await fake.waitFor(() => fake.responsesTo(clickUrl)[0], 'the click answer');

    // The live card arrives without anyone draining the outbox by hand.
    const card = await fake.waitFor(
      () => fake.messages.find((m) => m.metadata?.event_type === 'reelbot_card' && !m.thread_ts),
      'the live card',
    );
    expect(blocksText(card.blocks)).toContain('Moon');
  });
});
