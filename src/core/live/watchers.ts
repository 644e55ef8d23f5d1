/**
 * Every watcher by kind; the poller looks them up here.
 */
import { approvalWatcher } from '../approvals/expiry-watcher.js';
import { digestWatcher } from '../digests/digest-watcher.js';
import type { WatchKind } from '../ports/index.js';
import { balanceWatcher } from './balance-watcher.js';
import { feedWatcher } from './feed-watcher.js';
import { generationWatcher } from './generation-watcher.js';
import { renderWatcher } from './render-watcher.js';
import { resultsWatcher } from './results-watcher.js';
import { scheduleWatcher } from './schedule-watcher.js';
import { seriesWatcher } from './series-watcher.js';
import type { Watcher } from './watcher.js';

export const WATCHERS: Partial<Record<WatchKind, Watcher>> = {
  approval: approvalWatcher,
  feed: feedWatcher,
  generation: generationWatcher,
  render: renderWatcher,
  schedule: scheduleWatcher,
  series: seriesWatcher,
  results: resultsWatcher,
  balance: balanceWatcher,
  digest: digestWatcher,
};
