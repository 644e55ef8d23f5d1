import type { Logger } from '../core/ports/index.js';

/** The store's logger when its opener passes none (tests, tools): every line dropped. */
export const silentLogger: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silentLogger,
};
