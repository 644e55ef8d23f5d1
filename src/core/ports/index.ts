/**
 * Everything the core needs from the outside world, as small interfaces, one room per idea: chat platforms
 * (`chat.ts`), persistence (`store.ts` and the `records.ts` it keeps), time (`clock.ts`) and logs
 * (`logger.ts`). Concrete classes live in `src/api`, `src/store`, `src/poller` and `adapters/*`; only
 * `src/main.ts` knows them all. Import ports from here, never from a room.
 */
export * from './chat.js';
export * from './clock.js';
export * from './logger.js';
export * from './records.js';
export * from './store.js';
