import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  it('defaults to demo mode with the playground on port 3000', () => {
    const c = loadConfig({});
    expect(c.demo).toBe(true);
    expect(c.playground).toBe(true);
    expect(c.PORT).toBe(3000);
    expect(c.REELBOT_DATA_DIR).toBe('./data');
  });

  it('logs only warnings in the plain demo (the banner says the rest), info elsewhere, and as asked', () => {
    expect(loadConfig({}).LOG_LEVEL).toBe('warn');
    expect(loadConfig({ LOG_LEVEL: 'info' }).LOG_LEVEL).toBe('info');
    expect(loadConfig({ VIDEO_API_URL: 'https://video.example.com/api/v1' }).LOG_LEVEL).toBe('info');
    expect(loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' }).LOG_LEVEL).toBe('info');
  });

  it('treats empty strings as unset', () => {
    const c = loadConfig({ VIDEO_API_URL: '', PORT: '', SLACK_BOT_TOKEN: '' });
    expect(c.demo).toBe(true);
    expect(c.PORT).toBe(3000);
    expect(c.slack).toBeUndefined();
  });

  it('names the variable and the fix for a bad value', () => {
    expect(() => loadConfig({ VIDEO_API_URL: 'ftp://x' })).toThrow(
      /VIDEO_API_URL must be an http\(s\) URL ending in \/api\/v1/,
    );
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT must be a port number/);
    expect(() => loadConfig({ REELBOT_SECRET_KEY: 'short' })).toThrow(
      /REELBOT_SECRET_KEY .*openssl rand -base64 32/,
    );
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(/SLACK_SIGNING_SECRET is missing/);
    expect(() => loadConfig({ DISCORD_TOKEN: 't' })).toThrow(ConfigError);
    expect(() => loadConfig({ SLACK_BOT_TOKEN: 'abc', SLACK_SIGNING_SECRET: 's' })).toThrow(/xoxb-/);
  });

  it('selects PostgreSQL with DATABASE_URL, which needs the secret key every replica shares', () => {
    expect(loadConfig({}).DATABASE_URL).toBeUndefined();
    expect(() => loadConfig({ DATABASE_URL: 'mysql://db/reelbot' })).toThrow(
      /^DATABASE_URL must be a postgres:\/\/ URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db.internal/reelbot' })).toThrow(
      /^REELBOT_SECRET_KEY is missing: with DATABASE_URL every replica must use the same secret key/,
    );
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://db.internal/reelbot', REELBOT_SECRET_KEY: key }).DATABASE_URL,
    ).toBe('postgresql://db.internal/reelbot');
  });

  it('turns the playground off when a chat platform is configured unless PLAYGROUND=1', () => {
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
    expect(loadConfig(slack).playground).toBe(false);
    expect(loadConfig({ ...slack, PLAYGROUND: '1' }).playground).toBe(true);
    expect(loadConfig(slack).slack).toEqual({ botToken: 'xoxb-1', signingSecret: 's' });
  });

  it('leaves demo mode when VIDEO_API_URL is set', () => {
    expect(loadConfig({ VIDEO_API_URL: 'https://api.example.com/api/v1' }).demo).toBe(false);
  });

  it('refuses to expose the playground on a public interface', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(/HOST=0.0.0.0 would expose the playground/);
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
    expect(loadConfig({ ...slack, HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(() => loadConfig({ ...slack, HOST: '0.0.0.0', PLAYGROUND: '1' })).toThrow(/expose the playground/);
  });

  it('rejects a secret key that is not standard base64 of 32 bytes (the store would refuse it too)', () => {
    const urlSafe = Buffer.alloc(32, 0xfb).toString('base64url');
    expect(() => loadConfig({ REELBOT_SECRET_KEY: urlSafe })).toThrow(/REELBOT_SECRET_KEY/);
    expect(
      loadConfig({ REELBOT_SECRET_KEY: Buffer.alloc(32, 0xfb).toString('base64') }).REELBOT_SECRET_KEY,
    ).toBeDefined();
  });

  it('requires REELBOT_WORKSPACES when a shared key meets a multi-workspace Slack install', () => {
    const oauth = {
      SLACK_SIGNING_SECRET: 's',
      SLACK_CLIENT_ID: 'id',
      SLACK_CLIENT_SECRET: 'secret',
      SLACK_STATE_SECRET: 'state',
      VIDEO_API_URL: 'https://api.example.com/api/v1',
      VIDEO_API_KEY: 'fl_live_shared',
    };
    expect(() => loadConfig(oauth)).toThrow(/REELBOT_WORKSPACES is missing/);
    expect(loadConfig({ ...oauth, REELBOT_WORKSPACES: 'slack:T1, slack:T2' }).REELBOT_WORKSPACES).toEqual([
      'slack:T1',
      'slack:T2',
    ]);
  });

  it('scopes the shared key with Discord: one server by default, else REELBOT_WORKSPACES is required', () => {
    const discord = {
      DISCORD_TOKEN: 't',
      DISCORD_APPLICATION_ID: '1',
      VIDEO_API_URL: 'https://api.example.com/api/v1',
      VIDEO_API_KEY: 'fl_live_shared',
    };
    expect(() => loadConfig(discord)).toThrow(
      /^REELBOT_WORKSPACES is missing: with VIDEO_API_KEY and Discord, .*or set DISCORD_GUILD_ID\.$/,
    );
    expect(loadConfig({ ...discord, DISCORD_GUILD_ID: '42' }).REELBOT_WORKSPACES).toEqual(['discord:42']);
    expect(
      loadConfig({ ...discord, DISCORD_GUILD_ID: '42', REELBOT_WORKSPACES: 'discord:42,discord:@me' })
        .REELBOT_WORKSPACES,
    ).toEqual(['discord:42', 'discord:@me']);
    // Without a shared key nobody acts under the team's key: members link their own.
    const { VIDEO_API_KEY: _shared, ...linkedOnly } = discord;
    expect(loadConfig(linkedOnly).REELBOT_WORKSPACES).toBeUndefined();
  });

  it('refuses a plain-http VIDEO_API_URL beyond this machine unless ALLOW_INSECURE_API=1', () => {
    expect(() => loadConfig({ VIDEO_API_URL: 'http://video.example.com/api/v1' })).toThrow(
      /^VIDEO_API_URL uses plain http:\/\/ to another host, .* set ALLOW_INSECURE_API=1 if the network is private\.$/,
    );
    expect(
      loadConfig({ VIDEO_API_URL: 'http://video.example.com/api/v1', ALLOW_INSECURE_API: '1' }).demo,
    ).toBe(false);
    for (const local of [
      'http://127.0.0.1:4010/api/v1',
      'http://localhost:4010/api/v1',
      'http://[::1]:4010/api/v1',
    ]) {
      expect(loadConfig({ VIDEO_API_URL: local }).demo, local).toBe(false);
    }
    expect(loadConfig({ VIDEO_API_URL: 'https://video.example.com/api/v1' }).warnings).toEqual([]);
  });

  it('warns when a platform API override points beyond this machine', () => {
    const c = loadConfig({
      SLACK_API_URL: 'https://slack.example.net/api/',
      DISCORD_API_URL: 'http://127.0.0.1:9/api',
    });
    expect(c.warnings).toEqual([
      "SLACK_API_URL points the bot's token at slack.example.net instead of the platform: only for testing.",
    ]);
  });
});
