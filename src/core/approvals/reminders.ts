/**
 * Reminders (DESIGN §5): a pending request's approvers are mentioned once when half its lifetime has passed
 * and once an hour before it expires, in a reply in the request card's thread. The approval watch looks at
 * those times (expiry-watcher.ts); the outbox dedupe key names the request and the reminder, so a replica or
 * a restart that looks again never says it twice. `settings reminders off` (the workspace's, or a channel's with `--here`) stops them.
 */
import { replyToCard } from '../live/live-card.js';
import type { Approval, Store } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { md } from '../text/text.js';
import { formatBoth } from '../time/format.js';
import { approvalModel, roundKey } from './effects.js';
import type { ApprovalCardModel } from './model.js';
import { effectiveSettings } from './workspace-policy.js';

const HOUR = 60 * 60_000;

export type ReminderKind = 'half-life' | 'hour-left';

export interface Reminder {
  kind: ReminderKind;
  at: number;
}

/**
 * The reminders of a request asked at `requestedAt` that expires at `expiresAt`, in time order. When the
 * last hour starts before half the lifetime has passed (a lifetime of two hours or less), the half-life one
 * is the only reminder.
 */
export function remindersOf(requestedAt: number, expiresAt: number): Reminder[] {
  if (expiresAt <= requestedAt) return [];
  const half = requestedAt + Math.floor((expiresAt - requestedAt) / 2);
  const hourLeft = expiresAt - HOUR;
  const all: Reminder[] = [{ kind: 'half-life', at: half }];
  if (hourLeft > half) all.push({ kind: 'hour-left', at: hourLeft });
  return all;
}

/** When the approval watch looks next after `now`: the next reminder, else the expiry itself. */
export function nextLookAt(requestedAt: number, expiresAt: number, now: number): number {
  return remindersOf(requestedAt, expiresAt).find((r) => r.at > now)?.at ?? expiresAt;
}

/** The reminder due at `now` (the latest one whose time has come), if the request has not expired yet. */
export function dueReminder(requestedAt: number, expiresAt: number, now: number): Reminder | undefined {
  if (now >= expiresAt) return undefined;
  return remindersOf(requestedAt, expiresAt)
    .filter((r) => r.at <= now)
    .at(-1);
}

/**
 * Queues the reminder due at `now` for a pending approval, once per request and kind (inside the poller's
 * transaction), unless the workspace turned reminders off. The approvers the card named are mentioned;
 * nobody else is.
 */
export async function sendDueReminder(store: Store, approval: Approval, now: number): Promise<void> {
  if (approval.status !== 'pending' || approval.expiresAt === null) return;
  const model = await approvalModel(store, approval);
  if (!model) return;
  // With stages: the approvers of the stage it waits at who have not approved it yet.
  const step = model.path?.[model.stage ?? 0];
  const approvers = step ? step.approvers.filter((a) => !step.covered.includes(a)) : model.approvers;
  if (approvers.length === 0) return;
  const due = dueReminder(model.requestedAt, approval.expiresAt, now);
  if (!due) return;
  if ((await effectiveSettings(store, approval.conversation)).reminders === false) return;
  await replyToCard(store, {
    key: approval.cardKey,
    card: reminderCard(model, approval.expiresAt, approvers),
    dedupeKey: `${roundKey(approval)}:remind:${due.kind}`,
    threaded: true,
  });
}

function reminderCard(model: ApprovalCardModel, expiresAt: number, approvers: string[]): Card {
  return {
    title: md`Reminder: approval needed`,
    tone: 'warning',
    text: md`**${model.summary}** still waits for an approver. It expires on ${formatBoth(expiresAt, md`UTC`)} if nobody decides before; the buttons are on the request above.`,
    notify: [...approvers],
  };
}
