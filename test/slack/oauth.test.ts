/**
 * Multi-workspace install: `GET /slack/install` redirects to Slack's consent page with a signed state (and its
 * cookie); the callback exchanges the code (`oauth.v2.access` at SLACK_API_URL), stores the installation
 * sealed in SQLite, and from then on that workspace's requests and deliveries use its own bot token.
 * `app_uninstalled` removes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installationId } from '../../adapters/slack/installations.js';
import { ChatDeliveryError } from '../../src/core/ports/index.js';
import { md } from '../../src/core/text/text.js';
import { fixture, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
let base: string;
beforeAll(async () => {
  w = await slackWorld({
    slack: {
      oauth: {
        clientId: '7141926741253.7141999',
        clientSecret: 'c1i3nt-s3cr3t',
        stateSecret: 'st4te-s3cr3t',
      },
    },
  });
  base = w.eventsUrl.replace('/slack/events', '');
});
afterAll(() => w.close());

describe('OAuth install', () => {
  it('installs a workspace, then answers and delivers there with its own token', async () => {
    const install = await fetch(`${base}/slack/install`, { redirect: 'manual' });
    expect(install.status).toBe(302);
    const location = new URL(install.headers.get('location') as string);
    expect(location.pathname).toBe('/oauth/v2/authorize');
    expect(location.searchParams.get('client_id')).toBe('7141926741253.7141999');
    expect(location.searchParams.get('scope')?.split(',')).toEqual(
      expect.arrayContaining(['commands', 'chat:write', 'users:read']),
    );
    const state = location.searchParams.get('state') as string;
    const cookie = (install.headers.get('set-cookie') as string).split(';')[0] as string;

    // A callback without the state cookie is refused, and installs nothing.
    const forged = await fetch(
      `${base}/slack/oauth_redirect?code=code-T0002&state=${encodeURIComponent(state)}`,
    );
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(await w.h.store.installations.get(installationId({ teamId: 'T0002' }))).toBeUndefined();

    const callback = await fetch(
      `${base}/slack/oauth_redirect?code=code-T0002&state=${encodeURIComponent(state)}`,
      {
        headers: { cookie },
      },
    );
    expect(callback.status).toBe(200);
    expect(w.fake.callsOf('oauth.v2.access')[0]?.args).toMatchObject({
      code: 'code-T0002',
      client_id: '7141926741253.7141999',
    });
    const stored = await w.h.store.installations.get(installationId({ teamId: 'T0002' }));
    expect(JSON.parse(stored as string)).toMatchObject({
      team: { id: 'T0002' },
      bot: { token: 'xoxb-T0002-installed-bot-token' },
    });

    // A command from the new workspace runs under its installation.
    // T0001 (the fixture's team) never installed the app: Bolt acknowledges and runs no listener.
    const sent = await w.command('help', { raw: true });
    expect(sent.status).toBe(200);
    const payload = fixture<Record<string, string>>('slash-command.json');
    const responseUrl = w.fake.responseUrl();
    Object.assign(payload, {
      team_id: 'T0002',
      team_domain: 'team-two',
      text: 'whoami',
      response_url: responseUrl,
    });
    const res = await w.send(new URLSearchParams(payload).toString(), 'application/x-www-form-urlencoded');
    expect(res.status).toBe(200);
    await w.reply(responseUrl);
    expect(w.fake.callsOf('users.info').at(-1)?.token).toBe('xoxb-T0002-installed-bot-token');
    // T0002's command, sent later, has been answered: T0001's got nothing.
    expect(w.fake.responsesTo(sent.responseUrl)).toEqual([]);

    // Deliveries pick the workspace's token; a workspace without an installation is a permanent failure.
    await w.adapter.sender.post('slack:T0002:C0TWO', { title: md`Hello` }, { dedupeId: 'outbox:1' });
    expect(w.fake.callsOf('chat.postMessage').at(-1)?.token).toBe('xoxb-T0002-installed-bot-token');
    const refused = await w.adapter.sender
      .post('slack:T0001:C0VIDEOS', { title: md`Hello` }, { dedupeId: 'outbox:2' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChatDeliveryError);
    expect((refused as ChatDeliveryError).retryable).toBe(false);

    // Uninstalled: the sealed installation is deleted.
    const event = fixture<Record<string, unknown>>('app-home-opened.json');
    Object.assign(event, {
      team_id: 'T0002',
      event: { type: 'app_uninstalled', event_ts: '1700000040.000100' },
      event_id: 'Ev07A1UNINST',
      authorizations: [
        {
          enterprise_id: null,
          team_id: 'T0002',
          user_id: 'U0BOT2',
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
    });
    expect((await w.send(JSON.stringify(event), 'application/json')).status).toBe(200);
    await w.fake.waitFor(
      async () => (await w.h.store.installations.get(installationId({ teamId: 'T0002' }))) === undefined,
      'the installation to go',
    );
  });
});
