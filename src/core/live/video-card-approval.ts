/** The line a video's card gives the latest approval request about the video. */
import { type CardText, literal, md } from '../text/text.js';

/** An approval request's state as the video's card shows it; `summary` is card markdown. */
export interface VideoApproval {
  id: string;
  /** When it was asked: a later change to an older request never replaces a newer one on the card. */
  requestedAt?: number;
  status: 'pending' | 'approved' | 'rejected' | 'expired' | 'failed' | 'withdrawn' | 'changes';
  summary: CardText;
  by?: string;
}

const APPROVAL_LINE: Record<VideoApproval['status'], CardText> = {
  pending: md`⏳ Waiting for approval`,
  approved: md`✅ Approved`,
  rejected: md`❌ Rejected`,
  expired: md`⌛ Approval expired`,
  failed: md`⚠️ Approved, but it failed`,
  withdrawn: md`↩️ Request withdrawn`,
  changes: md`✏️ Changes requested`,
};

/** "⏳ Waiting for approval: Publish “X” to YouTube" / "✅ Approved by Bo: …". */
export const approvalLine = (a: VideoApproval): CardText =>
  md`${APPROVAL_LINE[a.status]}${a.by && a.status !== 'pending' ? md` by ${literal(a.by)}` : md``}: ${a.summary}`;
