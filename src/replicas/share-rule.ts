/**
 * How much of an API key's rate limits one replica may use when several send with that key, so
 * that together they never exceed the service's limits (video-api.md §8). Pure: the registry
 * (postgres-registry.ts) feeds it what it reads from the `replicas` table.
 *
 * Every replica publishes a `bound` in its row: the largest fraction of any limit (the key's or an endpoint's)
 * its calls may fill in a window, now or later: max(its use in the current window, its share). It is a true
 * bound because a budget admits a call only while its window holds fewer than `floor(limit × share)`: once
 * published, the replica's count in any window stays ≤ max(count then, limit × share) as long as its share
 * does not rise. So the calls in the service's window, summed over replicas, are ≤ limit × Σ bounds, and the
 * rules keep Σ bounds ≤ 1:
 *
 * 1. N counts this replica, the live others, and those gone (left, or silent past the timeout) less than a
 *    rate window ago: their calls are still in the service's windows, and their rows (bound included) stay in
 *    the table that long, so a replica joining meanwhile counts them too.
 * 2. The share LOWERS at once to 1/N when N grows (applied before the lowered bound is published).
 * 3. It RISES (a joiner from 0 to 1/N; 1/N to 1/(N−1) once a departed replica's window has passed) only when
 *    the others' bounds leave room: Σ others' bounds ≤ 1 − 1/N. Then its own new bound, max(use, 1/N), keeps
 *    the sum ≤ 1 (its use is ≤ its previous bound). A rise is published before it is used.
 * 4. Decisions are serialized (each heartbeat reads, decides and writes under a table lock), so every decision
 *    sees every earlier one.
 *
 * The join transient: a replica joins with share 0 and bound 0. The others may hold up to their old, larger
 * shares of the current window; they see the joiner at their next heartbeat and lower to 1/N, but what they
 * already sent stays in the window, and their bound says so (use > 1/N). The joiner waits until their calls
 * age out, i.e. Σ their bounds ≤ 1 − 1/N. When nobody is near a limit (the usual case) that is at the others'
 * next heartbeat (≤ 2 s); at worst one window (60 s, or 5 min when someone just used a 5-minute endpoint limit
 * beyond its new share). Waiting costs the joiner, never the limit; publishing one number per replica (the
 * largest fraction over all its keys and limits: conservative across keys) avoids the blanket "wait one
 * window" that a joiner knowing nothing would need.
 *
 * Shares are only ever 0 or 1/N, so `floor(limit × 1/N) ≤ limit / N` whenever N ≤ the smallest limit (5 for
 * POST /series): beyond 5 replicas the per-budget minimum of one call per window may exceed a 5-call limit.
 */

/** Within floating-point noise: 3 × (1/3) is not always ≤ 1. */
const EPSILON = 1e-9;

export interface ShareInputs {
  /** The share in force now (0 before the first decision, or after the registry lost touch). */
  current: number;
  /** N: this replica, the live others, and the others gone less than a window ago. */
  count: number;
  /** Σ of the others' published bounds (live and recently gone). */
  othersBound: number;
}

/** The share to use after this heartbeat (see the file comment). */
export function nextShare({ current, count, othersBound }: ShareInputs): number {
  const fair = 1 / Math.max(1, count);
  if (fair <= current) return fair;
  return othersBound <= 1 - fair + EPSILON ? fair : current;
}
