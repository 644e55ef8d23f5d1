/**
 * Configuration: one zod schema over the environment (DESIGN §2). `.env` is read by `main.ts` first;
 * an empty string counts as unset. A bad value stops start-up with one sentence naming the variable
 * and the fix.
 */
import { z } from 'zod';
import { decodeSecretKey } from './store/secret-key.js';

const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const schema = z.object({
  VIDEO_API_URL: optional.refine((v) => v === undefined || /^https?:\/\/.+\/api\/v1\/?$/.test(v), {
    message: 'must be an http(s) URL ending in /api/v1, e.g. https://video.example.com/api/v1',
  }),
  VIDEO_API_KEY: optional,
  REELBOT_DATA_DIR: optional.transform((v) => v ?? './data'),
  DATABASE_URL: optional.refine((v) => v === undefined || /^postgres(ql)?:\/\/./.test(v), {
    message: 'must be a postgres:// URL, e.g. postgres://reelbot:secret@db.internal:5432/reelbot',
  }),
  /**
   * With DATABASE_URL: how long anything waits on a stopped replica (lock waits; its idle transaction is ended
   * after half of it). See `sessionSettings` in src/store/postgres/session.ts.
   */
  DATABASE_TIMEOUT_MS: optional
    .transform((v) => (v === undefined ? 4000 : Number(v)))
    .refine((v) => Number.isInteger(v) && v >= 200 && v <= 600_000, {
      message: 'must be milliseconds between 200 and 600000, e.g. 4000',
    }),
  /** Who this process is among the replicas sharing DATABASE_URL; default `<hostname>-<pid>-<random>`. */
  REELBOT_REPLICA_ID: optional,
  REELBOT_SECRET_KEY: optional.refine((v) => v === undefined || decodeSecretKey(v) !== undefined, {
    message: 'must be 32 bytes in base64; make one with `openssl rand -base64 32`',
  }),
  REELBOT_WORKSPACES: optional.transform((v) =>
    v
      ?.split(',')
      .map((w) => w.trim())
      .filter(Boolean),
  ),
  PORT: optional
    .transform((v) => (v === undefined ? 3000 : Number(v)))
    .refine((v) => Number.isInteger(v) && v >= 0 && v <= 65535, { message: 'must be a port number 0-65535' }),
  HOST: optional.transform((v) => v ?? '127.0.0.1'),
  PLAYGROUND: optional.transform((v) => v === '1' || v === 'true'),
  SLACK_BOT_TOKEN: optional.refine((v) => v === undefined || v.startsWith('xoxb-'), {
    message: 'must be a bot token starting with xoxb- (Slack app → OAuth & Permissions)',
  }),
  SLACK_SIGNING_SECRET: optional,
  SLACK_APP_TOKEN: optional.refine((v) => v === undefined || v.startsWith('xapp-'), {
    message:
      'must be an app-level token starting with xapp- (Slack app → Basic Information → App-Level Tokens)',
  }),
  SLACK_API_URL: optional,
  SLACK_CLIENT_ID: optional,
  SLACK_CLIENT_SECRET: optional,
  SLACK_STATE_SECRET: optional,
  DISCORD_TOKEN: optional,
  DISCORD_APPLICATION_ID: optional,
  DISCORD_PUBLIC_KEY: optional.refine((v) => v === undefined || /^[0-9a-f]{64}$/i.test(v), {
    message: 'must be the 64-hex-character public key from the Discord developer portal',
  }),
  DISCORD_API_URL: optional,
  DISCORD_GUILD_ID: optional,
  LOG_LEVEL: optional
    .transform((v) => v ?? 'info')
    .refine((v) => ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(v), {
      message: 'must be one of fatal, error, warn, info, debug, trace, silent',
    }),
  SIM_SPEED: optional
    .transform((v) => (v === undefined ? 20 : Number(v)))
    .refine((v) => Number.isFinite(v) && v > 0, { message: 'must be a positive number' }),
  METRICS_TOKEN: optional,
  ALLOW_INSECURE_API: optional.transform((v) => v === '1' || v === 'true'),
  SIM_PROFILE: optional
    .transform((v) => v ?? 'spec')
    .refine((v) => v === 'spec' || v === 'real', { message: 'must be spec or real' })
    .transform((v) => v as 'spec' | 'real'),
});

/** Every variable the bot reads (`.env.example` and the README's table list exactly these; a test checks). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

export type Config = z.infer<typeof schema> & {
  slack?: {
    /** Single-workspace token; optional with `oauth` (each installation brings its own). */
    botToken?: string;
    signingSecret: string;
    appToken?: string;
    apiUrl?: string;
    /** Multi-workspace install (`/slack/install`), installations stored encrypted in SQLite. */
    oauth?: { clientId: string; clientSecret: string; stateSecret: string };
  };
  discord?: { token: string; applicationId: string; publicKey?: string; apiUrl?: string; guildId?: string };
  /** Demo mode: no VIDEO_API_URL, the embedded simulator serves the API. */
  demo: boolean;
  playground: boolean;
  /** Things an operator should hear about at start-up, though they do not stop it. */
  warnings: string[];
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

const hostOf = (url: string): string => (URL.canParse(url) ? new URL(url).hostname : url);
const isLoopbackUrl = (url: string): boolean => {
  const host = hostOf(url);
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
};
const isPlainRemote = (url: string): boolean => url.startsWith('http://') && !isLoopbackUrl(url);

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/**
 * Replicas share the database: each must seal and unseal linked keys with the same secret key, which a data
 * directory's generated secret.key cannot give them.
 */
function checkReplicaSettings(c: {
  DATABASE_URL?: string | undefined;
  REELBOT_SECRET_KEY?: string | undefined;
}) {
  if (c.DATABASE_URL && !c.REELBOT_SECRET_KEY) {
    throw new ConfigError(
      'REELBOT_SECRET_KEY is missing: with DATABASE_URL every replica must use the same secret key for linked API keys; make one with `openssl rand -base64 32` and give it to each replica.',
    );
  }
}

/** Platform URLs pointed away from the platform (fakes in tests): the bot's token goes there. */
function testingUrlWarnings(c: { SLACK_API_URL?: string | undefined; DISCORD_API_URL?: string | undefined }) {
  return (['SLACK_API_URL', 'DISCORD_API_URL'] as const)
    .filter((name) => c[name] && !isLoopbackUrl(c[name]))
    .map(
      (name) =>
        `${name} points the bot's token at ${hostOf(c[name] as string)} instead of the platform: only for testing.`,
    );
}

type Parsed = z.infer<typeof schema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const c = parseEnvironment(env);
  const config: Config = { ...c, demo: c.VIDEO_API_URL === undefined, playground: false, warnings: [] };
  checkApiUrl(c);
  config.warnings.push(...testingUrlWarnings(c));
  checkReplicaSettings(c);
  const slack = readSlack(c);
  if (slack) config.slack = slack;
  const discord = readDiscord(c);
  if (discord) config.discord = discord;
  // The playground is the default chat when no platform is configured (DESIGN §2).
  config.playground = c.PLAYGROUND || (!config.slack && !config.discord);
  // The two-command demo is read by a person: its start-up banner says what matters, the JSON log only what
  // went wrong, unless LOG_LEVEL asks for more. Deployments log at info.
  if (config.demo && !config.slack && !config.discord && !env.LOG_LEVEL?.trim()) config.LOG_LEVEL = 'warn';
  checkPlaygroundHost(config);
  const workspaces = sharedKeyWorkspaces(config);
  if (workspaces) config.REELBOT_WORKSPACES = workspaces;
  return config;
}

/** The schema's first complaint, as one sentence naming the variable. */
function parseEnvironment(env: Record<string, string | undefined>): Parsed {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'configuration');
    throw new ConfigError(`${variable} ${issue?.message ?? 'is invalid'}.`);
  }
  return parsed.data;
}

/** Every team key travels in the Authorization header: never over plain HTTP beyond this machine. */
function checkApiUrl(c: Parsed) {
  if (c.VIDEO_API_URL && !c.ALLOW_INSECURE_API && isPlainRemote(c.VIDEO_API_URL)) {
    throw new ConfigError(
      'VIDEO_API_URL uses plain http:// to another host, which would send every API key in clear text: use https://, or set ALLOW_INSECURE_API=1 if the network is private.',
    );
  }
}

/** Slack's optional parts, the same for the OAuth and the single-workspace install. */
const slackExtras = (c: Parsed) => ({
  ...(c.SLACK_APP_TOKEN ? { appToken: c.SLACK_APP_TOKEN } : {}),
  ...(c.SLACK_API_URL ? { apiUrl: c.SLACK_API_URL } : {}),
});

/** Slack: the multi-workspace OAuth install when its three variables are set, else one workspace's token. */
function readSlack(c: Parsed): Config['slack'] {
  return readSlackOAuth(c) ?? readSlackToken(c);
}

function readSlackOAuth(c: Parsed): Config['slack'] {
  const oauthParts = {
    SLACK_CLIENT_ID: c.SLACK_CLIENT_ID,
    SLACK_CLIENT_SECRET: c.SLACK_CLIENT_SECRET,
    SLACK_STATE_SECRET: c.SLACK_STATE_SECRET,
  };
  const oauthMissing = Object.entries(oauthParts).filter(([, v]) => !v);
  if (oauthMissing.length > 0 && oauthMissing.length < 3) {
    throw new ConfigError(
      `${oauthMissing[0]?.[0]} is missing: a multi-workspace Slack install needs SLACK_CLIENT_ID, SLACK_CLIENT_SECRET and SLACK_STATE_SECRET.`,
    );
  }
  if (oauthMissing.length > 0) return undefined;
  if (!c.SLACK_SIGNING_SECRET) {
    throw new ConfigError(
      'SLACK_SIGNING_SECRET is missing: the Slack OAuth install needs it with SLACK_CLIENT_ID (Slack app → Basic Information).',
    );
  }
  // A bot token is optional here: each installation brings its own.
  return {
    signingSecret: c.SLACK_SIGNING_SECRET,
    oauth: {
      clientId: c.SLACK_CLIENT_ID as string,
      clientSecret: c.SLACK_CLIENT_SECRET as string,
      stateSecret: c.SLACK_STATE_SECRET as string,
    },
    ...(c.SLACK_BOT_TOKEN ? { botToken: c.SLACK_BOT_TOKEN } : {}),
    ...slackExtras(c),
  };
}

function readSlackToken(c: Parsed): Config['slack'] {
  const slackParts = [c.SLACK_BOT_TOKEN, c.SLACK_SIGNING_SECRET];
  if (slackParts.some(Boolean) && !slackParts.every(Boolean)) {
    throw new ConfigError(
      `${c.SLACK_BOT_TOKEN ? 'SLACK_SIGNING_SECRET' : 'SLACK_BOT_TOKEN'} is missing: Slack needs both SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET.`,
    );
  }
  if (c.SLACK_BOT_TOKEN && c.SLACK_SIGNING_SECRET) {
    return { botToken: c.SLACK_BOT_TOKEN, signingSecret: c.SLACK_SIGNING_SECRET, ...slackExtras(c) };
  }
  if (c.SLACK_APP_TOKEN) {
    throw new ConfigError(
      'SLACK_APP_TOKEN is set without SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET: set all three.',
    );
  }
  return undefined;
}

function readDiscord(c: Parsed): Config['discord'] {
  if (Boolean(c.DISCORD_TOKEN) !== Boolean(c.DISCORD_APPLICATION_ID)) {
    throw new ConfigError(
      `${c.DISCORD_TOKEN ? 'DISCORD_APPLICATION_ID' : 'DISCORD_TOKEN'} is missing: Discord needs both DISCORD_TOKEN and DISCORD_APPLICATION_ID.`,
    );
  }
  if (!c.DISCORD_TOKEN || !c.DISCORD_APPLICATION_ID) return undefined;
  return {
    token: c.DISCORD_TOKEN,
    applicationId: c.DISCORD_APPLICATION_ID,
    ...(c.DISCORD_PUBLIC_KEY ? { publicKey: c.DISCORD_PUBLIC_KEY } : {}),
    ...(c.DISCORD_API_URL ? { apiUrl: c.DISCORD_API_URL } : {}),
    ...(c.DISCORD_GUILD_ID ? { guildId: c.DISCORD_GUILD_ID } : {}),
  };
}

/** The playground lets whoever reaches it act as any member: never on a public interface. */
function checkPlaygroundHost(config: Config) {
  if (config.playground && !LOOPBACK.has(config.HOST)) {
    throw new ConfigError(
      `HOST=${config.HOST} would expose the playground (an unauthenticated local chat): keep HOST=127.0.0.1, or set PLAYGROUND=0 with Slack or Discord configured.`,
    );
  }
}

/**
 * A deployment-wide key serves every member of every workspace that can reach the bot: with a public
 * multi-workspace install it must be limited to the team's own workspaces.
 * Discord applications are public by default: anyone could add the bot to their server, or DM it, and act
 * under the team's key. One server configured is the scope when nothing else is said.
 */
function sharedKeyWorkspaces(config: Config): string[] | undefined {
  if (!config.VIDEO_API_KEY || config.REELBOT_WORKSPACES) return undefined;
  if (config.discord && !config.DISCORD_GUILD_ID) {
    throw new ConfigError(
      'REELBOT_WORKSPACES is missing: with VIDEO_API_KEY and Discord, list the servers allowed to use the shared key, e.g. REELBOT_WORKSPACES=discord:123456789012345678 (add discord:@me to serve DMs), or set DISCORD_GUILD_ID.',
    );
  }
  if (config.slack?.oauth) {
    throw new ConfigError(
      'REELBOT_WORKSPACES is missing: with VIDEO_API_KEY and a multi-workspace Slack install, list the workspaces allowed to use the shared key, e.g. REELBOT_WORKSPACES=slack:T0123ABCD.',
    );
  }
  return config.discord ? [`discord:${config.DISCORD_GUILD_ID}`] : undefined;
}
