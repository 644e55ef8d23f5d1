/** The line a video's card gives the latest approval request about the video. */
import { literal } from '../text/text.js';

/** An approval request's state as the video's card shows it; `summary` is card markdown. */
export interface VideoApproval {
  id: string;
  /** When it was asked: a later change to an older request never replaces a newer one on the card. */
  requestedAt?: number;
  status: 'pending' | 'approved' | 'rejected' | 'expired' | 'failed' | 'withdrawn';
  summary: string;
  by?: string;
}

const APPROVAL_LINE: Record<VideoApproval['status'], string> = {
  pending: '⏳ Waiting for approval',
  approved: '✅ Approved',
  rejected: '❌ Rejected',
  expired: '⌛ Approval expired',
  failed: '⚠️ Approved, but it failed',
  withdrawn: '↩️ Request withdrawn',
};

/** "⏳ Waiting for approval: Publish “X” to YouTube" / "✅ Approved by Bo: …". */
export const approvalLine = (a: VideoApproval): string =>
  `${APPROVAL_LINE[a.status]}${a.by && a.status !== 'pending' ? ` by ${literal(a.by)}` : ''}: ${a.summary}`;
