import { z } from 'zod';
import type { LedgerEntry } from '../../core/video-api/video-api.js';
import { optList, optText, reqNumber, reqText } from './common.js';

/** An entry without its amount, kind or time is dropped from the page (counted), never failing it. */
export const LedgerEntryWire = z.object({
  credits: reqNumber(),
  /** Open: `spending` and kinds the spec does not list. */
  type: reqText(),
  description: optText(),
  createdAt: reqText(),
});

export const CreditsWire = z.object({ balance: reqNumber(), history: optList(LedgerEntryWire) });

export function toLedgerEntry(wire: z.output<typeof LedgerEntryWire>): LedgerEntry {
  return {
    credits: wire.credits,
    type: wire.type,
    description: wire.description ?? '',
    createdAt: wire.createdAt,
  };
}
