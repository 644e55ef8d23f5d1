/**
 * Structured logs (pino). Secrets never reach a log line: known secret-bearing fields are redacted by
 * path, and any string that looks like an API key or platform token is masked by a serializer-free
 * formatter hook as a second line of defence.
 */
import { type Logger as PinoLogger, pino } from 'pino';
import type { Logger } from '../core/ports.js';

const REDACT_PATHS = [
  'apiKey',
  'key',
  'token',
  'secret',
  'authorization',
  'password',
  '*.apiKey',
  '*.key',
  '*.token',
  '*.secret',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'config.SLACK_BOT_TOKEN',
  'config.SLACK_SIGNING_SECRET',
  'config.DISCORD_TOKEN',
  'config.VIDEO_API_KEY',
];

/** API keys (`fl_…`), Slack tokens (`xox…-`, `xapp-`) and bearer headers. */
const SECRET_PATTERN =
  /\b(fl_(?:live|test)_[A-Za-z0-9_]+|xox[abprs]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+|Bearer\s+\S+)/g;

/**
 * Secrets known by value — the deployment's tokens, every team key a client was built for — masked wherever
 * they appear, whatever their shape (a real service's keys need not look like `fl_live_…`).
 */
const verbatim = new Set<string>();

/** Masks `secret` in every log line from now on (too short a value would mangle ordinary text). */
export function maskVerbatim(secret: string | undefined): void {
  if (secret && secret.length >= 8) verbatim.add(secret);
}

export function maskSecrets(text: string): string {
  let out = text;
  for (const secret of verbatim) if (out.includes(secret)) out = out.split(secret).join('[redacted]');
  return out.replace(SECRET_PATTERN, (m) => `${m.slice(0, 8)}…[redacted]`);
}

export function createLogger(
  options: { level?: string; destination?: NodeJS.WritableStream; name?: string } = {},
): Logger & PinoLogger {
  const destination = options.destination
    ? { write: (line: string) => options.destination?.write(maskSecrets(line)) }
    : { write: (line: string) => process.stdout.write(maskSecrets(line)) };
  return pino(
    {
      name: options.name ?? 'reelbot',
      level: options.level ?? 'info',
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination,
  );
}
