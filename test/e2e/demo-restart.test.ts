/**
 * The demo remembers: a restart of `npm start` continues the embedded simulator's state from the
 * data directory (videos, credits, the team's key), so the store's policy, audit and cards still point at
 * things that exist; `--fresh` starts the demo over. Driven through the playground's routes, as the page does.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type RunningApp, SIMULATOR_STATE_FILE, StartupError, startApp } from '../../src/main.js';

let dataDir: string;
let app: RunningApp | undefined;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'reelbot-restart-'));
});
afterEach(async () => {
  await app?.stop();
  app = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

const env = { PORT: '0', LOG_LEVEL: 'silent', SIM_SPEED: '60' };
const start = async (options: { fresh?: boolean } = {}) => {
  app = await startApp({ ...env, REELBOT_DATA_DIR: dataDir }, options);
  return app;
};

interface Reply {
  messages?: { id: string; html: string }[];
}
async function post(path: string, body: Record<string, unknown>): Promise<Reply> {
  const res = await fetch(`${app?.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'alice', channel: 'general', timeZone: 'UTC', ...body }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Reply;
}
const say = async (text: string) =>
  ((await post('/playground/command', { text })).messages ?? []).map((m) => m.html).join('\n');

/** Creates a video through the cost confirmation's Create button, as a member would. */
async function createVideo(name: string): Promise<void> {
  const reply = await post('/playground/command', {
    text: `/reel create --name "${name}" Five tips for filming on a phone, in sixty seconds flat.`,
  });
  const confirm = reply.messages?.find((m) => /data-action="[^"]+"[^>]*>Create/.test(m.html));
  if (!confirm) throw new Error('no cost confirmation');
  const [, action, value] = /data-action="([^"]+)" data-value="([^"]*)"[^>]*>Create/.exec(confirm.html) ?? [];
  await post('/playground/action', {
    messageId: confirm.id,
    action,
    value: (value ?? '').replace(/&quot;/g, '"').replace(/&amp;/g, '&'),
  });
}

it('continues the demo after a restart: videos and credits are still there', {
  timeout: 60_000,
}, async () => {
  await start();
  await createVideo('Kept across restarts');
  expect(await say('/reel credits')).toMatch(/480/);
  await app?.stop();
  app = undefined;
  expect(existsSync(join(dataDir, SIMULATOR_STATE_FILE))).toBe(true);

  await start();
  expect(await say('/reel videos')).toContain('Kept across restarts');
  expect(await say('/reel credits')).toMatch(/480/);
  // The same team answers the same key: the video is found by `last`, as before the restart.
  expect(await say('/reel show last')).toContain('Kept across restarts');
});

it('--fresh starts the demo over', { timeout: 60_000 }, async () => {
  await start();
  await createVideo('Forgotten');
  await app?.stop();
  app = undefined;

  await start({ fresh: true });
  expect(await say('/reel videos')).not.toContain('Forgotten');
  expect(await say('/reel credits')).toMatch(/500/);
});

it('--fresh against the real service is refused in one sentence, removing nothing', async () => {
  const refused = await startApp(
    { ...env, REELBOT_DATA_DIR: dataDir, VIDEO_API_URL: 'http://127.0.0.1:9/api/v1', VIDEO_API_KEY: 'k' },
    { fresh: true },
  ).catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(StartupError);
  expect((refused as Error).message).toMatch(/^--fresh starts the demo over/);
});
