/**
 * An embedded simulator's state kept in a file (the demo's `./data/simulator.json`): loaded at start, written
 * a moment after the requests that may have changed it (at most once a second) and when it closes. Written
 * whole to a temporary file then renamed, so a crash leaves the last complete state. Without a file the
 * simulator stays in memory (tests, `npm run simulator`, several instances side by side).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readSnapshot, type Snapshot } from './snapshot.js';

const SAVE_DELAY_MS = 1_000;

/** The saved state at `path`; undefined when there is none, or it cannot be read (the demo then starts over). */
export function loadState(path: string, warn: (message: string) => void): Snapshot | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const state = readSnapshot(JSON.parse(readFileSync(path, 'utf8')));
    if (!state) warn(`${path} is from another version of the simulator; starting over`);
    return state;
  } catch (error) {
    warn(`${path} cannot be read (${(error as Error).message}); starting over`);
    return undefined;
  }
}

/** Saves `snapshot()` to `path` soon after `changed()`, and at once on `flush()`; unchanged text is not rewritten. */
export class StateFile {
  #timer: NodeJS.Timeout | undefined;
  #written = '';

  constructor(
    private readonly path: string,
    private readonly snapshot: () => Snapshot,
  ) {}

  changed(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
    this.#timer.unref();
  }

  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    const text = JSON.stringify(this.snapshot());
    if (text === this.#written) return;
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, text, { mode: 0o600 });
    renameSync(temporary, this.path);
    this.#written = text;
  }
}
