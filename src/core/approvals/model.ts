/**
 * What an approval card shows, kept as the card's model so every later state (decided, ran, failed,
 * expired) is rendered from the same facts. The requesting command describes itself with neutral fields
 * and sections; only times are formatted here, because the shared card shows the requester's zone and UTC.
 */
import { createHash } from 'node:crypto';
import type { ApprovalStatus, UserAddress } from '../ports/index.js';
import type { CardText, Field, Image, Section } from '../text/cards.js';

/** The commands an approval can run, each run by the runner its command group registers (`runner-port.ts`). */
export const APPROVED_COMMANDS = [
  'publish',
  'schedule',
  'create',
  'series.generate',
  'series.create',
  'series.resume',
  'series.edit',
] as const;
export type ApprovedCommand = (typeof APPROVED_COMMANDS)[number];

/** After the decision: what running the approved action did. */
export interface ApprovalOutcome {
  state: 'running' | 'done' | 'failed';
  /** Neutral words for the shared card (no viewer's zone), as card markdown. */
  text: CardText;
}

export interface ApprovalCardModel {
  type: 'approval';
  approvalId: string;
  command: ApprovedCommand;
  /** Card markdown, names escaped: `Publish “Launch teaser” to YouTube` */
  summary: CardText;
  requester: UserAddress;
  requesterName: string;
  /** The requester's zone when they asked: the card shows it beside UTC. */
  requesterZone: string;
  /** Approver references at request time (the current list decides; this is what the card said). */
  approvers: string[];
  requestedAt: number;
  /** The scheduled instant, for `schedule`: shown, and the approval expires then. */
  at?: number;
  /** Card markdown (the requesting command escapes the names it shows). */
  fields: Field[];
  sections?: Section[];
  image?: Image;
  status: ApprovalStatus;
  decidedByName?: string;
  decidedAt?: number;
  reason?: string;
  outcome?: ApprovalOutcome;
  /** A reschedule replaced this request with one for this instant. */
  rescheduledTo?: number;
  /** The requester withdrew it before anyone decided (name of who did). */
  withdrawnBy?: string;
  /** How: `unschedule` of its video, or the Withdraw button (card or inbox). */
  withdrawnWith?: 'unschedule' | 'button';
  /** Replaced by a new request because someone changed what it would publish (content-guard.ts). */
  replacedBecause?: 'content';
  /** Who changed it, and when. */
  replacedByName?: string;
  replacedAt?: number;
  /** When a request without a scheduled time expires (the request lifetime), for the card's words. */
  expiresAt?: number;
  /** With stages (`settings approval stages`): each stage in order (absent: the one implicit stage). */
  path?: StageStep[];
  /** The stage it waits at (or was decided at), by position in `path`. */
  stage?: number;
}

/** One stage of a request's path as its card shows it, fixed when it reaches the stage. */
export interface StageStep {
  name: string;
  all: boolean;
  /** The approvers mentioned for it. */
  approvers: string[];
  /** Names of who approved it so far, in order. */
  by: string[];
  /** The approver references their Approves cover (an All stage moves on when every one is). */
  covered: string[];
}

/**
 * Approval ids derive from the request's idempotency key: the same user action asked twice (double click,
 * retried command) finds the approval it already made instead of posting a second card.
 */
export const approvalIdFor = (idempotencyKey: string): string =>
  `ap_${createHash('sha256').update(idempotencyKey).digest('base64url').slice(0, 16)}`;

export const approvalCardKey = (approvalId: string): string => `approval:${approvalId}`;

export function readApprovalModel(raw: Record<string, unknown> | undefined): ApprovalCardModel | undefined {
  return raw?.type === 'approval' ? (raw as unknown as ApprovalCardModel) : undefined;
}

export const asRecord = (model: ApprovalCardModel): Record<string, unknown> =>
  model as unknown as Record<string, unknown>;
