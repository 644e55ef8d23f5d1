/** Bolt's and the Web API client's logger interface over reelbot's structured logger. */
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../src/core/index.js';

/**
 * Capped at info whatever reelbot's own level: at debug, Bolt and the Web API client log whole payloads —
 * a `link` form's submission carries the API key being linked, before reelbot could know to mask it.
 */
export function boltLogger(logger: Logger): BoltLogger {
  const log = logger.child({ sdk: 'slack' });
  let level: LogLevel = LogLevel.INFO;
  const text = (msgs: unknown[]) =>
    msgs
      .map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m)))
      .join(' ');
  return {
    debug: () => {},
    info: (...msgs) => log.info({}, text(msgs)),
    warn: (...msgs) => log.warn({}, text(msgs)),
    error: (...msgs) => log.error({}, text(msgs)),
    setLevel: (l) => {
      if (l !== LogLevel.DEBUG) level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
