/**
 * The Slack adapter (DESIGN §2–§4): Bolt for the transport, the core for everything said.
 *
 * - Socket Mode when `SLACK_APP_TOKEN` is set (no public URL); otherwise HTTP mode: Bolt's `HTTPReceiver`
 *   is mounted at `POST /slack/events` on the shared server and verifies every request with the signing
 *   secret (HMAC `v0:timestamp:body`, requests older than 5 minutes refused) before anything runs.
 * - `SLACK_API_URL` points every Web API call (Bolt's client, the sender, Socket Mode's
 *   `apps.connections.open`, OAuth) at another base, e.g. a local fake in tests.
 * - With `SLACK_CLIENT_ID/SECRET/STATE_SECRET`: multi-workspace install at `GET /slack/install` (callback
 *   `GET /slack/oauth_redirect`), installations sealed in SQLite; each workspace's bot token comes from there.
 */
import type { HTTPReceiver } from '@slack/bolt';
import type { Config } from '../../src/config.js';
import type {
  Bot,
  ChatAdapter,
  ChatCapabilities,
  Clock,
  Logger,
  Store,
  WorkspaceGate,
} from '../../src/core/index.js';
import type { Handler, HttpServer } from '../../src/http/server.js';
import { BlockSupport } from './block-support.js';
import { createBoltApp } from './bolt-app.js';
import { SlackGroups } from './groups.js';
import { createBotTokens, forgetRevoked } from './installations.js';
import { refreshHome } from './listeners/publish-home.js';
import { registerListeners } from './listeners.js';
import { SlackPeople } from './people.js';
import { createPresenter } from './present.js';
import { EVENTS_PATH, INSTALL_PATH, REDIRECT_PATH } from './routes.js';
import { createSlackSender } from './sender.js';
import { useWorkspaceGate } from './workspace-gate.js';

export { EVENTS_PATH, INSTALL_PATH, REDIRECT_PATH } from './routes.js';

export interface SlackAdapterOptions {
  config: NonNullable<Config['slack']>;
  bot: Bot;
  http: HttpServer;
  logger: Logger;
  clock: Clock;
  store: Store;
  /** Workspaces the bot serves; a request from any other is refused before the core runs. */
  gate?: WorkspaceGate;
}

/** `start` verifies the token (`auth.test`) and, in Socket Mode, connects. */
export type SlackAdapter = ChatAdapter;

/** Block Kit: modals, ephemeral answers and threads; files by upload; no gallery, no typed suggestions. */
export const SLACK_CAPABILITIES: ChatCapabilities = {
  modals: true,
  ephemeral: true,
  threads: true,
  files: true,
  autocomplete: false,
  mediaGallery: false,
  // plain_text_input max_length.
  maxInputLength: 3_000,
  // users.info `tz`, on every request.
  sharesTimeZones: true,
  workspaceNoun: 'workspace',
  groupNoun: 'user group',
  workspacelessDms: false,
};

export function createSlackAdapter(options: SlackAdapterOptions): SlackAdapter {
  const { config, store } = options;
  const logger = options.logger.child({ component: 'slack' });
  const { app, httpReceiver } = createBoltApp({ config, store, logger });
  // Which of Slack's newest blocks each workspace refused lately: shared by replies and outbox posts.
  const blockSupport = new BlockSupport(options.clock);

  // Before any listener: a workspace the bot does not serve never reaches the core.
  if (options.gate) useWorkspaceGate(app, options.gate);
  // A single bot token serves one workspace: learnt once at start, it tells guests of shared channels apart.
  let homeTeam: string | undefined;
  const listeners = registerListeners(app, {
    homeTeam: () => homeTeam,
    bot: options.bot,
    store,
    people: new SlackPeople(options.clock, logger),
    groups: new SlackGroups(options.clock, logger),
    presenter: createPresenter({ logger, clock: options.clock, store: store.interactions, blockSupport }),
    logger,
    clock: options.clock,
    acks: options.http.acks,
    onRevoked: (revoked) =>
      forgetRevoked(store, revoked, { oauth: !!config.oauth, logger, now: options.clock.now() }),
  });

  app.error((error) => {
    logger.error({ err: error }, 'unhandled error in a Slack listener');
    return Promise.resolve();
  });

  let started = false;
  if (httpReceiver) mountRoutes({ options, httpReceiver, started: () => started });

  const sender = createSlackSender({
    tokens: createBotTokens({
      ...(config.botToken ? { botToken: config.botToken } : {}),
      ...(config.oauth ? { store } : {}),
    }),
    store,
    logger,
    blockSupport,
    ...(config.apiUrl ? { apiUrl: config.apiUrl } : {}),
    home: (user, client) => refreshHome(listeners, { client, user }),
  });

  return {
    name: 'slack',
    capabilities: SLACK_CAPABILITIES,
    sender,
    async start() {
      await app.init();
      if (config.botToken && !config.oauth) {
        const who = await app.client.auth.test({ token: config.botToken }).catch(() => undefined);
        homeTeam = typeof who?.team_id === 'string' ? who.team_id : undefined;
      }
      if (config.appToken) await app.start();
      started = true;
      logger.info(
        { mode: config.appToken ? 'socket' : 'http', oauth: !!config.oauth },
        config.appToken ? 'Slack connected (Socket Mode)' : `Slack listening at POST ${EVENTS_PATH}`,
      );
    },
    async stop() {
      if (started && config.appToken) await app.stop();
      started = false;
    },
  };
}

/** Mounts Bolt's HTTP receiver: events in HTTP mode, the install routes with OAuth. */
function mountRoutes(mount: {
  options: SlackAdapterOptions;
  httpReceiver: HTTPReceiver;
  started: () => boolean;
}): void {
  const { config, http } = mount.options;
  // Bolt takes no request before its init (in `start`): until then Slack is asked to retry.
  const bolt = mount.httpReceiver.requestListener;
  const listener = untilStarted((req, res) => bolt(req, res), mount.started);
  if (!config.appToken)
    // A chat route: the shared server reads the body (bounded) before Bolt does.
    http.mount(EVENTS_PATH, listener, { interactive: true });
  if (config.oauth) {
    http.mount(INSTALL_PATH, listener);
    http.mount(REDIRECT_PATH, listener);
  }
}

/** A route that answers 503 (Retry-After 1) until the adapter has started. */
function untilStarted(listener: Handler, started: () => boolean): Handler {
  return (req, res) => {
    if (started()) return listener(req, res);
    res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' });
    res.end('starting');
  };
}
