/**
 * One-shot cards: a confirmation — a cost card, a delete question, "Publish again?" — acts once.
 * Its first click answers by replacing the clicked message with the outcome, without the card's buttons (each
 * adapter renders `update` as an edit of the clicked message); the outcome is stored with who and when under
 * the card's id, and any later click on the same card — a stale copy, a reload, another tab — is answered
 * privately "Already done by X at 10:02" and never acts again. Clicks that arrive while the first is running
 * share its outcome. A failure (thrown, or answered as an error card) stores nothing: the card stays usable.
 *
 * An outcome meant for the whole conversation (`series create`'s "Series created") is posted there through the
 * outbox, in the transaction that stores the outcome, so it is said once however often the card is clicked.
 */

import { postToChannel } from '../live/live-card.js';
import type { ActionSpec } from '../parse/command-spec.js';
import { formatMention } from '../people/mentions.js';
import { type Card, type Control, message, type Response } from '../text/cards.js';
import { say } from '../text/messages.js';
import { md } from '../text/text.js';
import { formatSeen } from '../time/format.js';
import { type CommandContext, userError } from './context.js';
import { isErrorReply } from './error-card.js';
import { isRequestId } from './request-id.js';

/** What a one-shot card's click did, kept under `one-shot:<card>` in the card states. */
interface OneShotRecord {
  by: string;
  at: number;
  conversation: string;
  /** The outcome's title ("Series created: Night Terrors", "Cancelled"). */
  outcome: string;
}

export interface OneShotSpec {
  action: string;
  /**
   * The card a button value belongs to (every button of one card names the same card), or undefined for a
   * button of a card posted before cards carried an id: it acts as it always did.
   */
  card(value: string): string | undefined;
  run(ctx: CommandContext, value: string, choice?: string): Promise<Response> | Response;
}

const recordKey = (card: string): string => `one-shot:${card}`;

/**
 * A button value for `subject` (a video or series id) on one card: `<subject>:<card id>`, the card id minted
 * when the card opens, so two questions about one video are two cards.
 */
export const onCard = (subject: string, card: string): string => `${subject}:${card}`;

/** The subject and card id of an `onCard` value; no card id for a button of a card posted before they had one. */
export function fromCard(value: string): { subject: string; card?: string } {
  const at = value.lastIndexOf(':');
  const card = at === -1 ? '' : value.slice(at + 1);
  return isRequestId(card) ? { subject: value.slice(0, at), card } : { subject: value };
}

/** Clicks on one card while its first is running share that click's outcome (per process; keys cover the rest). */
const inFlight = new Map<string, Promise<Response>>();

/** A click handler that acts once per card (see the file comment). */
export function oneShot(spec: OneShotSpec): ActionSpec {
  return {
    action: spec.action,
    run(ctx, value, choice) {
      const card = spec.card(value);
      if (card === undefined) return spec.run(ctx, value, choice);
      const running = inFlight.get(card);
      if (running) return running;
      const attempt = once(ctx, { spec, card, value, choice }).finally(() => inFlight.delete(card));
      inFlight.set(card, attempt);
      return attempt;
    },
  };
}

/**
 * The "Already done by …" answer when a one-shot card has acted (after any click on it in flight), else
 * undefined: for a form one of the card's buttons opened (the cost card's "More options"), whose submission
 * would change the question after it was answered.
 */
export async function answeredAlready(ctx: CommandContext, card: string): Promise<Response | undefined> {
  await inFlight.get(card)?.catch(() => undefined);
  const done = await readRecord(ctx, card);
  return done ? alreadyDone(ctx, done) : undefined;
}

async function once(
  ctx: CommandContext,
  click: { spec: OneShotSpec; card: string; value: string; choice: string | undefined },
): Promise<Response> {
  const { spec, card, value, choice } = click;
  const store = ctx.deps.store;
  const done = await readRecord(ctx, card);
  if (done) return alreadyDone(ctx, done);
  const response = await spec.run(ctx, value, choice);
  if ((response.kind !== 'message' && response.kind !== 'update') || isErrorReply(response)) return response;
  const outcome = response.card;
  const record: OneShotRecord = {
    by: ctx.req.user,
    at: ctx.now(),
    conversation: ctx.req.conversation,
    outcome: outcome.title,
  };
  const first = await store.transaction(async () => {
    if (await readRecord(ctx, card)) return false;
    await store.cardStates.put(recordKey(card), { ...record });
    if (response.kind === 'message' && response.visibility === 'channel') {
      await postToChannel(store, {
        conversation: ctx.req.conversation,
        card: outcome,
        dedupeKey: `${recordKey(card)}:outcome`,
      });
    }
    return true;
  });
  // Another replica's click stored its outcome first: this one's action was the same request (same key).
  if (!first) {
    const other = await readRecord(ctx, card);
    if (other) return alreadyDone(ctx, other);
  }
  return { kind: 'update', card: closed(outcome) };
}

async function readRecord(ctx: CommandContext, card: string): Promise<OneShotRecord | undefined> {
  const stored = (await ctx.deps.store.cardStates.get(recordKey(card))) as Partial<OneShotRecord> | undefined;
  if (typeof stored?.by !== 'string' || typeof stored.at !== 'number') return undefined;
  // A card of another conversation: the button was not on a message here.
  if (stored.conversation !== ctx.req.conversation) throw userError('interaction-expired');
  return stored as OneShotRecord;
}

/** "Already done by @alice at 10:02": the time in the clicker's zone, with the day when it is not today. */
async function alreadyDone(ctx: CommandContext, done: OneShotRecord): Promise<Response> {
  return message({
    title: md`Already done`,
    tone: 'info',
    text: say('one-shot-done', {
      who: formatMention(done.by),
      when: formatSeen(done.at, await ctx.timeZone(), ctx.now()),
      what: done.outcome,
    }),
  });
}

/** The outcome as the clicked message shows it: links stay, buttons and menus go (they belong to the question). */
function closed(card: Card): Card {
  const links = (controls: readonly Control[] | undefined) =>
    (controls ?? []).filter((c) => c.kind === 'link');
  const { controls: _controls, sections, ...rest } = card;
  const kept = links(card.controls);
  return {
    ...rest,
    ...(kept.length > 0 ? { controls: kept } : {}),
    ...(sections
      ? {
          sections: sections.map(({ controls, ...section }) => {
            const inSection = links(controls);
            return inSection.length > 0 ? { ...section, controls: inSection } : section;
          }),
        }
      : {}),
  };
}
