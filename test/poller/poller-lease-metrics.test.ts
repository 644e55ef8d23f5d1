/** The poller's lease metrics for replicas sharing one database: claims, lapsed leases taken over, watches taken. */
import { describe, expect, it } from 'vitest';
import type { WatchKind } from '../../src/core/ports/index.js';
import { addWatch, clock, fakeWatcher, HOUR, onEachStore, poller, store } from './poller-world.js';
import { deferred } from './support.js';

onEachStore(() => {
  describe('Poller: lease metrics (replicas)', () => {
    const recorded = () => {
      const claims: [string, number, number][] = [];
      const lost: WatchKind[] = [];
      const metricsOf = (holder: string) => ({
        checked: () => {},
        lag: () => {},
        claims: (claimed: number, taken: number) => claims.push([holder, claimed, taken]),
        leaseLost: (kind: WatchKind) => lost.push(kind),
      });
      return { claims, lost, metricsOf };
    };

    it('reports each claim, and a result dropped because another poller took the lapsed lease over', async () => {
      const { claims, lost, metricsOf } = recorded();
      await addWatch();
      const hung = deferred();
      const slow = fakeWatcher(async (w) => {
        await hung.promise;
        return { state: w.state, done: false };
      });
      const quick = fakeWatcher();
      const leases = { leaseMs: 5_000 };
      const a = poller({
        watchers: { generation: slow.watcher },
        holder: 'a',
        ...leases,
        metrics: metricsOf('a'),
      });
      const b = poller({
        watchers: { generation: quick.watcher },
        holder: 'b',
        ...leases,
        metrics: metricsOf('b'),
      });
      const stuck = a.tick();
      await expect.poll(() => slow.checked.length).toBe(1);
      clock.advance(5_000);
      await b.tick(); // a's lease lapsed: b checks and commits
      hung.resolve();
      await stuck;
      expect(claims).toEqual([
        ['a', 1, 0],
        ['b', 1, 0],
      ]);
      expect(lost).toEqual(['generation']);
    });

    it('counts as taken the due watches another poller leased between due and claim', async () => {
      const { claims, lost, metricsOf } = recorded();
      const [first] = [await addWatch(), await addWatch({ target: 'v2' })];
      // Another replica leases the first watch just after this poller listed the due ones.
      const watches = new Proxy(store.watches, {
        get(target, key) {
          if (key !== 'due') return Reflect.get(target, key);
          return async (...args: Parameters<typeof target.due>) => {
            const due = await target.due(...args);
            await target.claim([first?.id as string], {
              holder: 'other',
              now: clock.now(),
              until: clock.now() + HOUR,
            });
            return due;
          };
        },
      });
      const racing = new Proxy(store, {
        get(target, key) {
          if (key === 'watches') return watches;
          const value = Reflect.get(target, key);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const { watcher, checked } = fakeWatcher();
      await poller({ store: racing, watchers: { generation: watcher }, metrics: metricsOf('b') }).tick();
      expect(checked.map((w) => w.target)).toEqual(['v2']);
      expect(claims).toEqual([['b', 1, 1]]);
      expect(lost).toEqual([]);
    });
  });
});
