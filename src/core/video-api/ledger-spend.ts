/**
 * Credits spent in a window, from the credits ledger (GET /credits, newest first): its debits between `since`
 * and `until`, read a page of 100 at a time until a page reaches back past `since`. What the monthly cap
 * (approvals/month-spend.ts) and the digests (digests/digest-reads.ts) count. A ledger longer than `maxPages`
 * for the window is not summed (undefined): a caller never works from a part of it.
 */
import type { CallOptions, VideoApi } from './video-api.js';

const PAGE = 100;
/** 10,000 ledger entries in the window; more counts as unreadable. */
const MAX_PAGES = 100;

export interface LedgerSpend {
  /** The balance the ledger reports now. */
  balance: number;
  spent: number;
}

/** The debits between `since` (inclusive) and `until` (exclusive; default now), and the balance. */
export async function ledgerSpend(
  api: VideoApi,
  window: { since: number; until?: number },
  options?: CallOptions,
): Promise<LedgerSpend | undefined> {
  const until = window.until ?? Number.POSITIVE_INFINITY;
  let spent = 0;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { balance, history, pagination } = await api.credits.get({ page, limit: PAGE }, options);
    for (const e of history) {
      const at = Date.parse(e.createdAt);
      if (e.credits < 0 && at >= window.since && at < until) spent -= e.credits;
    }
    const oldest = history.at(-1);
    if (!oldest || Date.parse(oldest.createdAt) < window.since || page * PAGE >= pagination.total)
      return { balance, spent };
  }
  return undefined;
}
