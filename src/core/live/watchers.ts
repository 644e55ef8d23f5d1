/**
 * Every watcher by kind; the poller looks them up here.
 */
import type { WatchKind } from '../ports.js';
import { seriesWatcher } from './series-watcher.js';
import type { Watcher } from './watcher.js';

export const WATCHERS: Partial<Record<WatchKind, Watcher>> = {
  series: seriesWatcher,
};
