/**
 * Start-up against the fake: the real discord.js client speaks the gateway protocol (HELLO → IDENTIFY with
 * the token and the Guilds intent → READY → GUILD_CREATE, heartbeats ACKed), `/reel` is registered
 * idempotently (guild or global scope), `npm run register-commands` does the same, and a bad token stops
 * start-up with a sentence naming the variable.
 */
import { REST } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCommandPayload } from '../../adapters/discord/commands.js';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { registerCommands } from '../../adapters/discord/register.js';
import { runRegisterCommands } from '../../adapters/discord/register-cli.js';
import { MODULES } from '../../src/core/commands/index.js';
import type { Logger } from '../../src/core/ports/index.js';
import { untilAborted } from '../support/test-clock.js';
import { FakeDiscord } from './fake-discord.js';
import { discordWorld, IDS, TOKEN, type World } from './world.js';

let w: World | undefined;
let fake: FakeDiscord | undefined;
afterEach(async () => {
  await w?.close();
  await fake?.close();
  w = undefined;
  fake = undefined;
});

const COMMANDS = MODULES.flatMap((m) => m.commands ?? []);
const newFake = () =>
  new FakeDiscord({
    token: TOKEN,
    applicationId: IDS.app,
    guildId: IDS.guild,
    channelId: IDS.channel,
  }).start();
const rest = (f: FakeDiscord) => new REST({ api: f.apiUrl }).setToken(TOKEN);

describe('gateway', () => {
  it('identifies with the bot token and the Guilds intent, and keeps the heartbeat', async () => {
    // Short enough to see heartbeats quickly, long enough that a loaded machine acks each before the next.
    w = await discordWorld({ heartbeatIntervalMs: 250 });
    expect(w.fake.identifies).toHaveLength(1);
    expect(w.fake.identifies[0]).toMatchObject({ token: TOKEN, intents: 1, shard: [0, 1] });
    await w.fake.waitFor(() => w?.fake.heartbeats !== undefined && w.fake.heartbeats >= 2, 3_000);
    // Still connected: an interaction after a few heartbeats is answered.
    const r = await w.slash('help');
    expect(r.callbacks).toHaveLength(1);
  });

  it('stops start-up with a clear sentence when the token is wrong', async () => {
    fake = await newFake();
    const adapter = createDiscordAdapter({
      config: { token: 'not-the-token', applicationId: IDS.app, apiUrl: fake.apiUrl },
      bot: { commands: COMMANDS } as never,
      http: { mount: () => {} } as never,
      store: {} as never,
      logger: silent(),
      clock: { now: () => Date.now(), sleep: async () => {}, timer: untilAborted },
      registerOnStart: false,
    });
    await expect(adapter.start()).rejects.toThrow(/check DISCORD_TOKEN/);
    await adapter.stop();
  });
});

describe('command registration', () => {
  it('registers once, guild-scoped, and skips the PUT when nothing changed', async () => {
    fake = await newFake();
    const first = await registerCommands({
      rest: rest(fake),
      applicationId: IDS.app,
      guildId: IDS.guild,
      commands: COMMANDS,
    });
    expect(first).toEqual({ scope: 'guild', changed: true, commands: ['reel', 'Make a video from this'] });
    const again = await registerCommands({
      rest: rest(fake),
      applicationId: IDS.app,
      guildId: IDS.guild,
      commands: COMMANDS,
    });
    expect(again.changed).toBe(false);
    expect(fake.commandPuts).toHaveLength(1);
    expect(fake.commandPuts[0]?.scope).toBe(`guild:${IDS.guild}`);
    // Discord stored what was sent.
    expect(fake.commands.get(`guild:${IDS.guild}`)?.[0]?.options).toEqual(
      buildCommandPayload(COMMANDS)[0]?.options,
    );

    // A changed declaration is sent again.
    const fewer = COMMANDS.filter((c) => c.name !== 'help');
    expect(
      (
        await registerCommands({
          rest: rest(fake),
          applicationId: IDS.app,
          guildId: IDS.guild,
          commands: fewer,
        })
      ).changed,
    ).toBe(true);
    expect(fake.commandPuts).toHaveLength(2);
  });

  it('registers globally without a guild id', async () => {
    fake = await newFake();
    const result = await registerCommands({ rest: rest(fake), applicationId: IDS.app, commands: COMMANDS });
    expect(result.scope).toBe('global');
    expect(fake.commandPuts.map((p) => p.scope)).toEqual(['global']);
  });

  it('is idempotent across restarts of the adapter', async () => {
    w = await discordWorld();
    expect(w.fake.commandPuts).toHaveLength(1);
    const second = createDiscordAdapter({
      config: { token: TOKEN, applicationId: IDS.app, apiUrl: w.fake.apiUrl, guildId: IDS.guild },
      bot: w.h.bot,
      http: w.http,
      store: w.h.store,
      logger: w.h.deps.logger,
      clock: w.h.clock,
    });
    await second.start();
    await second.stop();
    expect(w.fake.commandPuts).toHaveLength(1);
    expect(w.fake.identifies).toHaveLength(2);
  });

  it('runs as `npm run register-commands`', async () => {
    fake = await newFake();
    const lines: string[] = [];
    const env = {
      DISCORD_TOKEN: TOKEN,
      DISCORD_APPLICATION_ID: IDS.app,
      DISCORD_API_URL: fake.apiUrl,
      DISCORD_GUILD_ID: IDS.guild,
    };
    expect(await runRegisterCommands([], env, (l) => lines.push(l))).toBe(0);
    expect(await runRegisterCommands([], env, (l) => lines.push(l))).toBe(0);
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Registered /reel, /Make a video from this for guild ${IDS.guild} \\(\\d+ commands, \\d+, \\d+ characters: /reel's budget is \\d+, Discord's cap 8000\\)\\.$`,
        ),
      ),
      `/reel, /Make a video from this is already up to date for guild ${IDS.guild}; nothing sent.`,
    ]);
    expect(fake.commandPuts).toHaveLength(1);

    const missing: string[] = [];
    expect(await runRegisterCommands([], {}, (l) => missing.push(l))).toBe(2);
    expect(missing[0]).toMatch(/set DISCORD_TOKEN and DISCORD_APPLICATION_ID/);

    const printed: string[] = [];
    expect(await runRegisterCommands(['--print'], {}, (l) => printed.push(l))).toBe(0);
    expect(JSON.parse(printed[0] as string)).toEqual(buildCommandPayload(COMMANDS));

    fake.failNext('GET', /commands$/, 401);
    const failed: string[] = [];
    expect(await runRegisterCommands([], env, (l) => failed.push(l))).toBe(1);
    expect(failed[0]).toMatch(/^Registering commands failed/);
  });
});

function silent(): Logger {
  const logger: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => logger };
  return logger;
}
