import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Card } from '../../src/core/cards.js';
import type { Clock, Logger, NewWatch, OutboxOp } from '../../src/core/ports.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { untilAborted } from '../support/test-clock.js';

export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
export const HOUR = 3600_000;

/** A clock the test moves by hand. */
export class FakeClock implements Clock {
  constructor(public current = T0) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  async sleep(): Promise<void> {}
  timer = untilAborted;
}

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object;
  msg: string | undefined;
}

export function recordingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const at =
    (level: LogLine['level']) =>
    (obj: object, msg?: string): void => {
      lines.push({ level, obj, msg });
    };
  const logger = {
    lines,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => logger,
  };
  return logger;
}

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-store-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const newSecretKey = (): Buffer => randomBytes(32);

/** One way of opening a fresh store; the contract suite runs against each. */
export interface StoreFixture {
  name: string;
  open(clock: FakeClock): { store: SqliteStore; cleanup: () => void };
}

export const FIXTURES: StoreFixture[] = [
  {
    name: ':memory:',
    open: (clock) => {
      const store = openStore({ path: ':memory:', secretKey: newSecretKey(), clock });
      return { store, cleanup: () => store.close() };
    },
  },
  {
    name: 'temp file',
    open: (clock) => {
      const { dir, cleanup } = tempDir();
      const store = openStore({ path: join(dir, 'reelbot.db'), secretKey: newSecretKey(), clock });
      return {
        store,
        cleanup: () => {
          store.close();
          cleanup();
        },
      };
    },
  },
];

// Shared test data for the contract suites.
export const ALICE = 'slack:T1:U1';
export const BOB = 'slack:T1:U2';
export const CHANNEL = 'slack:T1:C1';
export const OTHER_CHANNEL = 'discord:G1:C9';

export const card = (title: string): Card => ({ title, tone: 'progress', progress: { percent: 40 } });
export const reply = (title: string): OutboxOp => ({ op: 'reply', conversation: CHANNEL, card: card(title) });

export const newWatch = (overrides: Partial<NewWatch> = {}): NewWatch => ({
  kind: 'generation',
  target: 'vid_1',
  owner: ALICE,
  conversation: CHANNEL,
  cardKey: 'card:vid_1',
  state: { percent: 0 },
  nextCheckAt: T0 + 10_000,
  expiresAt: T0 + 24 * HOUR,
  ...overrides,
});
