/**
 * Bolt's `App` and its receivers: Socket Mode when `SLACK_APP_TOKEN` is set, else an `HTTPReceiver` for
 * events; with OAuth, an `HTTPReceiver` serves the install routes in either mode. `SLACK_API_URL` points
 * every Web API call (Bolt's client, Socket Mode's `apps.connections.open`, OAuth) at another base.
 */
import { App, HTTPReceiver, type Receiver, SocketModeReceiver } from '@slack/bolt';
import type { Config } from '../../src/config.js';
import type { Logger, Store } from '../../src/core/index.js';
import { boltLogger } from './bolt-logger.js';
import { createInstallationStore } from './installations.js';
import { EVENTS_PATH, INSTALL_PATH, REDIRECT_PATH } from './routes.js';
import { BOT_SCOPE_NAMES } from './scopes.js';

type SlackConfig = NonNullable<Config['slack']>;

export interface BoltAppOptions {
  config: SlackConfig;
  store: Store;
  logger: Logger;
}

/** The app, and the HTTP receiver when there is one (HTTP mode, or OAuth's install routes). */
export function createBoltApp(options: BoltAppOptions): { app: App; httpReceiver: HTTPReceiver | undefined } {
  const { config } = options;
  const log = boltLogger(options.logger);
  const { httpReceiver, receiver } = receiversOf(config, options.store, log);
  const apiUrl = config.apiUrl ? { slackApiUrl: config.apiUrl } : {};
  const app = new App({
    receiver,
    ...authorizationOf(config, { receiver, httpReceiver }),
    logger: log,
    deferInitialization: true,
    clientOptions: {
      ...apiUrl,
      // Interactive calls (views.open, users.info) must not sleep through a rate limit: the 3 s trigger would pass.
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 1, factor: 1, minTimeout: 200, maxTimeout: 200 },
      timeout: 5_000,
    },
  });
  return { app, httpReceiver };
}

type Receivers = { httpReceiver: HTTPReceiver | undefined; receiver: Receiver };

function receiversOf(config: SlackConfig, store: Store, log: ReturnType<typeof boltLogger>): Receivers {
  const apiUrl = config.apiUrl ? { slackApiUrl: config.apiUrl } : {};
  const installationStore = config.oauth ? createInstallationStore(store) : undefined;
  // One receiver for the OAuth install routes (and, in HTTP mode, for events too).
  const httpReceiver =
    !config.appToken || config.oauth
      ? new HTTPReceiver({
          signingSecret: config.signingSecret,
          endpoints: EVENTS_PATH,
          logger: log,
          // Acknowledge as soon as a listener calls ack(); the work goes on after the HTTP response.
          processBeforeResponse: false,
          ...(config.oauth
            ? {
                clientId: config.oauth.clientId,
                clientSecret: config.oauth.clientSecret,
                stateSecret: config.oauth.stateSecret,
                installationStore,
                scopes: BOT_SCOPE_NAMES,
                installerOptions: {
                  installPath: INSTALL_PATH,
                  redirectUriPath: REDIRECT_PATH,
                  clientOptions: apiUrl,
                  directInstall: true,
                },
              }
            : {}),
        })
      : undefined;
  const receiver: Receiver = config.appToken
    ? new SocketModeReceiver({
        appToken: config.appToken,
        logger: log,
        // The Socket Mode client's own Web API calls (apps.connections.open) go to the same base.
        installerOptions: { clientOptions: apiUrl },
      })
    : (httpReceiver as HTTPReceiver);
  return { httpReceiver, receiver };
}

/** The single bot token, or (OAuth) each workspace's token from its installation. */
function authorizationOf(config: SlackConfig, { receiver, httpReceiver }: Receivers) {
  const installer = httpReceiver?.installer;
  return config.oauth
    ? receiver === httpReceiver
      ? {} // Bolt takes the HTTP receiver's installer as its authorize.
      : {
          authorize: (source: Parameters<NonNullable<typeof installer>['authorize']>[0]) =>
            installer!.authorize(source),
        }
    : { token: config.botToken as string };
}
