/**
 * The `Store` contract's frame: a suite run against every fixture (real SQLite in memory and in a temp file, a
 * real PostgreSQL), each test on a fresh TestClock and store. The exported bindings are live: a test reads the
 * clock, store and query planner its own beforeEach made.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe } from 'vitest';
import type { Store } from '../../src/core/ports/index.js';
import { TestClock } from '../support/test-clock.js';
import { FIXTURES, T0 } from './helpers.js';

export let clock: TestClock;
export let store: Store;
/** The query plan of a read-only statement on the running test's store, as one line of text. */
export let explain: (sql: string) => Promise<string>;

/** Runs `suite` as `Store contract: <part> (<fixture>)` once per fixture. */
export function storeContract(part: string, suite: () => void): void {
  describe.each(FIXTURES)(`Store contract: ${part} ($name)`, (fixture) => {
    let cleanup: () => Promise<void>;

    beforeAll(() => fixture.setup?.());
    afterAll(() => fixture.teardown?.());
    beforeEach(async () => {
      clock = new TestClock(T0);
      ({ store, cleanup, explain } = await fixture.open(clock));
    });
    afterEach(() => cleanup());

    suite();
  });
}
