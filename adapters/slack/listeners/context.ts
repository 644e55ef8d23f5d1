/** What every Bolt listener shares: the adapter's dependencies and its logger. */
import type { Logger } from '../../../src/core/index.js';
import type { ListenerDeps } from '../listeners.js';

export type ListenerContext = ListenerDeps & { log: Logger };
