/**
 * A promise a test opens by hand: a fake core or server is held at it until the test says, instead of
 * sleeping long enough for a deadline to pass.
 */
export interface Latch {
  readonly promise: Promise<void>;
  open(): void;
}

export function latch(): Latch {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Resolves once `check()` holds, re-checked each time `notify` is called (no timer). */
export class Notifier {
  #waiters: { check: () => boolean; resolve: () => void }[] = [];

  until(check: () => boolean): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ check, resolve }));
  }

  notify(): void {
    const ready = this.#waiters.filter((w) => w.check());
    this.#waiters = this.#waiters.filter((w) => !w.check());
    for (const w of ready) w.resolve();
  }
}
