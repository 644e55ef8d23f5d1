/** Bolt's and the Web API client's logger interface over reelbot's structured logger. */
import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../src/core/ports.js';

export function boltLogger(logger: Logger): BoltLogger {
  const log = logger.child({ component: 'slack' });
  let level: LogLevel = LogLevel.DEBUG;
  const text = (msgs: unknown[]) =>
    msgs
      .map((m) => (typeof m === 'string' ? m : m instanceof Error ? m.message : JSON.stringify(m)))
      .join(' ');
  return {
    debug: (...msgs) => log.debug({}, text(msgs)),
    info: (...msgs) => log.info({}, text(msgs)),
    warn: (...msgs) => log.warn({}, text(msgs)),
    error: (...msgs) => log.error({}, text(msgs)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => {},
  };
}
