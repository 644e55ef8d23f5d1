import { z } from 'zod';
import type { LedgerEntry } from '../../core/video-api.js';

export const LedgerEntryWire = z.object({
  id: z.string(),
  credits: z.number(),
  /** Open: `spending` and kinds the spec does not list. */
  type: z.string(),
  description: z.string(),
  createdAt: z.string(),
});

export const CreditsWire = z.object({ balance: z.number(), history: z.array(LedgerEntryWire) });

export function toLedgerEntry(wire: z.output<typeof LedgerEntryWire>): LedgerEntry {
  return { ...wire };
}
