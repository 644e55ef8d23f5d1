/** Slack configuration: single-workspace token, Socket Mode, API base, and the OAuth trio. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const oauth = { SLACK_CLIENT_ID: '1.2', SLACK_CLIENT_SECRET: 'cs', SLACK_STATE_SECRET: 'ss' };

describe('Slack configuration', () => {
  it('reads a single-workspace app, in Socket Mode with an API base override', () => {
    const c = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 's',
      SLACK_APP_TOKEN: 'xapp-1',
      SLACK_API_URL: 'http://127.0.0.1:9998/api/',
    });
    expect(c.slack).toEqual({
      botToken: 'xoxb-1',
      signingSecret: 's',
      appToken: 'xapp-1',
      apiUrl: 'http://127.0.0.1:9998/api/',
    });
    expect(c.playground).toBe(false);
  });

  it('reads the OAuth install, where a bot token is optional', () => {
    expect(loadConfig({ ...oauth, SLACK_SIGNING_SECRET: 's' }).slack).toEqual({
      signingSecret: 's',
      oauth: { clientId: '1.2', clientSecret: 'cs', stateSecret: 'ss' },
    });
    expect(
      loadConfig({ ...oauth, SLACK_SIGNING_SECRET: 's', SLACK_BOT_TOKEN: 'xoxb-1' }).slack?.botToken,
    ).toBe('xoxb-1');
  });

  it('names what is missing', () => {
    expect(() => loadConfig({ SLACK_CLIENT_ID: '1.2', SLACK_SIGNING_SECRET: 's' })).toThrow(
      /SLACK_CLIENT_SECRET is missing/,
    );
    expect(() => loadConfig(oauth)).toThrow(/SLACK_SIGNING_SECRET is missing/);
    expect(() => loadConfig({ SLACK_APP_TOKEN: 'xapp-1' })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's', SLACK_APP_TOKEN: 'xoxb-2' }),
    ).toThrow(/xapp-/);
  });
});
