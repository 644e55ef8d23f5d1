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

  it('turns the playground off when a chat platform is configured unless PLAYGROUND=1', () => {
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
    expect(loadConfig(slack).playground).toBe(false);
    expect(loadConfig({ ...slack, PLAYGROUND: '1' }).playground).toBe(true);
    expect(loadConfig(slack).slack).toEqual({ botToken: 'xoxb-1', signingSecret: 's' });
  });

  it('leaves demo mode when VIDEO_API_URL is set', () => {
    expect(loadConfig({ VIDEO_API_URL: 'https://api.example.com/api/v1' }).demo).toBe(false);
  });
});
