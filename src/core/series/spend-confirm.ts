/**
 * The cost card every series command that spends shows before it acts (DESIGN §5: create, resume, generate,
 * a model change): what is charged now, what each episode costs, the team's balance, and Confirm / Cancel.
 * Under `settings approval spend` above the threshold, Confirm sends the request to an approver instead.
 */

import { spendApprovalNote } from '../approvals/month-spend.js';
import type { CommandContext } from '../dispatch/context.js';
import type { Card, Field } from '../text/cards.js';
import { type CardText, literal, md } from '../text/text.js';

export interface SpendCardOptions {
  title: CardText;
  /** What happens, in words: the command's own sentence (prices already in it). */
  text: CardText;
  /** Credits charged at once by Confirm: 0 when nothing is, undefined when the price cannot be read. */
  chargedNow: number | undefined;
  /** Credits per episode, shown as its own field (left out when it is the charge itself, as for generate). */
  perEpisode?: number | undefined;
  /** What the spend commits to beyond the charge (a series: where, when and what it posts), after the cost. */
  publication?: Field[];
  /** The team's balance; undefined when it cannot be read (the card then leaves it out). */
  credits: number | undefined;
  /** Whether Confirm leads to an approval request rather than the action. */
  approval: boolean;
  /** Which policy asks for it (default spend): a series that posts waits under the publish policy. */
  approvalFor?: 'spend' | 'publish';
  confirm: { action: string; value: string; label: string };
  cancel: { action: string; value: string };
  /** When the balance does not cover the charge: the advice, and whether Confirm is withheld. */
  short?: { advice: CardText; withholdConfirm: boolean };
  /** The card's own context (ids), after the approval note when there is one. */
  context: CardText;
}

/** Whether a balance is known to be below a charge. */
export const isShort = (chargedNow: number | undefined, credits: number | undefined): boolean =>
  chargedNow !== undefined && chargedNow > 0 && credits !== undefined && credits < chargedNow;

/** `**50 credits** (Motion Lite)`, or the model's price in words when it cannot be read; `model` is its label. */
export const priceText = (cost: number | undefined, model: string): CardText =>
  cost === undefined ? md`the ${literal(model)} price` : md`**${cost} credits** (${literal(model)})`;

export async function spendCard(ctx: CommandContext, o: SpendCardOptions): Promise<Card> {
  const short = isShort(o.chargedNow, o.credits);
  const charged = o.chargedNow;
  const fields: Field[] = [
    ...(charged === undefined || charged === 0
      ? []
      : [{ label: md`Cost`, value: md`${charged}`, short: true }]),
    ...(o.perEpisode === undefined
      ? []
      : [{ label: md`Each episode`, value: md`${o.perEpisode} credits`, short: true }]),
    ...(o.credits === undefined ? [] : [{ label: md`Balance`, value: md`${o.credits}`, short: true }]),
    ...(charged !== undefined && charged > 0 && o.credits !== undefined && !short
      ? [{ label: md`After`, value: md`${o.credits - charged}`, short: true }]
      : []),
    ...(o.publication ?? []),
  ];
  const withhold = short && (o.short?.withholdConfirm ?? true);
  const label = o.approval ? 'Request approval' : o.confirm.label;
  const priced = charged === undefined || charged === 0 ? '' : ` (${charged} credits)`;
  return {
    title: o.title,
    tone: short ? 'warning' : 'info',
    text: md`${o.text}${o.credits === undefined ? md`` : md` Your team has **${o.credits}** credits.`}${short && o.short ? md`\n${o.short.advice}` : md``}`,
    fields,
    controls: [
      ...(withhold
        ? []
        : [
            {
              kind: 'button' as const,
              action: o.confirm.action,
              value: o.confirm.value,
              label: `${label}${priced}`,
              style: 'primary' as const,
            },
          ]),
      { kind: 'button', action: o.cancel.action, value: o.cancel.value, label: 'Cancel' },
    ],
    context: o.approval ? md`${await approvalNote(ctx, o)} · ${o.context}` : o.context,
  };
}

/** Why Confirm asks an approver, and what waits meanwhile. */
function approvalNote(ctx: CommandContext, o: SpendCardOptions): Promise<CardText> {
  if (o.approvalFor === 'publish')
    return Promise.resolve(
      md`Where, when and what a series posts needs an approver in this channel: nothing is sent until one approves.`,
    );
  return spendApprovalNote(ctx, o.chargedNow);
}

/** What a Cancel click leaves on the card: `what` did not happen ("No episode was generated"). */
export const cancelledCard = (what: CardText): Card => ({
  title: md`Cancelled`,
  tone: 'neutral',
  text: md`${what} and nothing was charged.`,
});
