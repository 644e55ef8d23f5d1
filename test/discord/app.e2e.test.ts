/**
 * The composition root with Discord configured: `startApp` with `DISCORD_*` pointed at the fake (demo mode:
 * embedded simulator, SQLite in a temp dir, real poller and outbox loop). Gateway mode answers a slash command
 * and the live card arrives and moves on its own; with `DISCORD_PUBLIC_KEY`, `/discord/interactions` is served
 * on the shared port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/main.js';
import { discordSigner } from '../support/ed25519.js';
import { FakeDiscord } from './fake-discord.js';
import { controlsIn, titleOf } from './read-message.js';
import {
  commandOptions,
  controlsOf,
  IDS,
  interactionPayload,
  type Json,
  TOKEN,
  textOfMessage,
} from './world.js';

let app: RunningApp | undefined;
let fake: FakeDiscord | undefined;
let dir: string | undefined;
afterEach(async () => {
  await app?.stop();
  await fake?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  app = undefined;
  fake = undefined;
  dir = undefined;
});

async function start(extra: Record<string, string> = {}) {
  fake = await new FakeDiscord({
    token: TOKEN,
    applicationId: IDS.app,
    guildId: IDS.guild,
    channelId: IDS.channel,
  }).start();
  dir = mkdtempSync(join(tmpdir(), 'reelbot-discord-'));
  app = await startApp({
    REELBOT_DATA_DIR: dir,
    PORT: '0',
    SIM_SPEED: '60',
    LOG_LEVEL: 'silent',
    DISCORD_TOKEN: TOKEN,
    DISCORD_APPLICATION_ID: IDS.app,
    DISCORD_API_URL: fake.apiUrl,
    DISCORD_GUILD_ID: IDS.guild,
    ...extra,
  });
  return fake;
}

describe('startApp with Discord', () => {
  it('connects, registers /reel, answers commands and keeps the live card moving', async () => {
    const f = await start();
    expect((await fetch(`${app?.url}/healthz`)).status).toBe(200);
    expect(f.identifies).toHaveLength(1);
    expect(f.commandPuts).toHaveLength(1);
    // No playground when a chat platform is configured.
    expect((await fetch(`${app?.url}/`)).status).toBe(404);

    const slash = interactionPayload('chat-input', 'alice');
    slash.data.options = commandOptions(f, ['create'], {
      script: 'Five tips for filming on a phone, in sixty seconds flat.',
      name: 'Phone tips',
    });
    const asked = f.dispatchInteraction(slash);
    await f.waitFor(() => asked.original, 10_000);
    const confirm = f.messages.get(asked.original as string);
    if (!confirm) throw new Error('no confirmation');
    expect(controlsOf(confirm)[0]).toMatch(/^Create/);

    const click = interactionPayload('button', 'alice');
    click.message = f.view(confirm);
    const create = controlsIn(confirm)[0] as Json;
    click.data = { component_type: 2, custom_id: create.custom_id, id: 1 };
    f.dispatchInteraction(click);
    // The runner's outbox posts the card on its own (nudged after the click) and the poller moves it.
    const card = await f.waitFor(() => f?.channelMessages()[0], 10_000);
    expect(titleOf(card)).toBe('Phone tips');
    await f.waitFor(() => controlsOf(card).includes('Render'), 60_000);
    expect(f.edits(card.id).length).toBeGreaterThan(0);
    expect(textOfMessage(card)).toContain('Requested by Alice');
  }, 90_000);

  it('serves signed HTTP interactions on the shared port with DISCORD_PUBLIC_KEY', async () => {
    const keys = discordSigner();
    const f = await start({ DISCORD_PUBLIC_KEY: keys.publicKeyHex });
    expect(f.identifies).toEqual([]);
    const body = JSON.stringify({ type: 1, id: '1', application_id: IDS.app, token: 't', version: 1 });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = keys.sign(timestamp, body);
    const res = await fetch(`${app?.url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ type: 1 });
    const forged = await fetch(`${app?.url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
      },
      body: body.replace('"t"', '"u"'),
    });
    expect(forged.status).toBe(401);
  }, 30_000);
});
