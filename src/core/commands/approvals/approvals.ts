/**
 * `approvals`: the approvals inbox (DESIGN §5). The workspace's pending requests the caller may decide, and
 * their own pending ones, each with the approval card's buttons. Inbox buttons carry `id:inbox`, so a click
 * here is re-authorised as if it came from the request's own conversation (src/core/approvals/reach.ts).
 * The same card is the approvals part of the Slack App Home (src/core/home/home.ts).
 */

import { APPROVE_ACTION, pathText, REJECT_ACTION, WITHDRAW_ACTION } from '../../approvals/card.js';
import { approvalModel } from '../../approvals/effects.js';
import { decisionRefusal } from '../../approvals/policy.js';
import { clickedApproval, inboxValue } from '../../approvals/reach.js';
import type { CommandContext } from '../../dispatch/context.js';
import { defineCommand } from '../../parse/command-spec.js';
import { formatMention } from '../../people/mentions.js';
import { workspaceOf } from '../../ports/address.js';
import type { Approval } from '../../ports/index.js';
import { type Card, type Control, message, type Section } from '../../text/cards.js';
import type { Table } from '../../text/table.js';
import { channel, code, command, joinText, literal, md, storedText } from '../../text/text.js';
import { formatListTime } from '../../time/format.js';

/** Requests shown with their buttons; Discord allows five rows of buttons under a message. */
const SHOWN = 5;
/** Requests the table lists: what a Slack data table and a Discord message hold comfortably. */
const LISTED = 50;

export const approvalsCommand = defineCommand({
  name: 'approvals',
  summary: 'Pending approval requests: the ones you may decide, and your own',
  options: [],
  examples: ['approvals'],
  details: md`Lists every pending request of this workspace you may approve or reject, and the requests you asked for, with their buttons. You can withdraw your own requests before anyone decides. With approval stages (${command('settings', ['approval', 'stages', 'brand,legal'])}), each request shows where it waits, and you decide those waiting at your stage.`,
  async run(ctx) {
    return message(await approvalsInbox(ctx));
  },
});

/** Whether the caller may decide `approval` now, by the same rules as a click (nothing is recorded). */
async function mayDecide(ctx: CommandContext, approval: Approval): Promise<boolean> {
  const where = (await clickedApproval(ctx, inboxValue(approval.id))).ctx;
  const store = ctx.deps.store;
  let allowed = false;
  // A listing is not a click: a refusal the policy would audit for a real click is rolled back.
  try {
    await store.transaction(async () => {
      allowed = (await decisionRefusal(where, approval)) === undefined;
      throw ROLLBACK;
    });
  } catch (error) {
    if (error !== ROLLBACK) throw error;
  }
  return allowed;
}
const ROLLBACK = new Error('inbox: roll back the decision check');

interface InboxEntry {
  approval: Approval;
  decide: boolean;
  mine: boolean;
}

/** The caller's inbox: what they may decide, then what they asked for (a request in both shows once). */
export async function inboxEntries(ctx: CommandContext): Promise<InboxEntry[]> {
  const now = ctx.now();
  const pending = (await ctx.deps.store.approvals.pendingIn(workspaceOf(ctx.req.conversation)))
    // Past its expiry, the poller is about to expire it: not worth a click.
    .filter((a) => a.expiresAt === null || a.expiresAt > now);
  const entries: InboxEntry[] = [];
  for (const approval of pending) {
    const mine = approval.requester === ctx.req.user;
    const decide = await mayDecide(ctx, approval);
    if (mine || decide) entries.push({ approval, decide, mine });
  }
  return entries;
}

/**
 * The inbox card: a table of the pending requests (at most `LISTED`), then the oldest `SHOWN` with their
 * buttons, each with the request's details.
 */
export async function approvalsInbox(ctx: CommandContext): Promise<Card> {
  const entries = await inboxEntries(ctx);
  if (entries.length === 0) {
    return {
      title: md`Approvals`,
      tone: 'neutral',
      text: md`Nothing is waiting for you: no pending request you can decide, and none of yours. Requests appear here when someone publishes, schedules or spends under an approval policy (${command('settings')}).`,
    };
  }
  const toDecide = entries.filter((e) => e.decide).length;
  const own = entries.filter((e) => e.mine).length;
  const shown = entries.slice(0, SHOWN);
  const more = entries.length - shown.length;
  const listed = entries.slice(0, LISTED);
  return {
    title: md`Approvals: ${entries.length} pending`,
    tone: toDecide > 0 ? 'warning' : 'info',
    text: md`${toDecide} for you to decide · ${own} of yours waiting.`,
    table: inboxTable(listed, { zone: await ctx.timeZone(), now: ctx.now() }),
    sections: await Promise.all(shown.map((e) => entrySection(ctx, e))),
    context:
      more > 0
        ? md`The oldest ${shown.length} have their buttons here${listed.length < entries.length ? md`; the table lists ${listed.length} of ${entries.length}` : md``}: decide these, then run ${command('approvals')} again.`
        : md`Buttons here act like those on the request cards.`,
  };
}

/** Every pending request in one table: what, who asked, where, when it expires and what the caller may do. */
function inboxTable(entries: InboxEntry[], o: { zone: string; now: number }): Table {
  return {
    caption: 'Pending requests',
    columns: [
      { label: 'Request' },
      { label: 'Asked by' },
      { label: 'In' },
      { label: 'Expires' },
      { label: 'You' },
    ],
    rows: entries.map(({ approval, decide, mine }) => [
      storedText(approval.action.summary),
      mine ? md`you` : formatMention(approval.requester),
      channel(approval.conversation),
      approval.expiresAt === null ? md`never` : formatListTime(approval.expiresAt, o.zone, o.now),
      joinText([decide ? md`decide` : undefined, mine ? md`withdraw` : undefined], ' or '),
    ]),
  };
}

async function entrySection(ctx: CommandContext, e: InboxEntry): Promise<Section> {
  const { approval } = e;
  const model = await approvalModel(ctx.deps.store, approval);
  const value = inboxValue(approval.id);
  const lines = [md`**${storedText(approval.action.summary)}**`];
  if (model?.fields.length) {
    lines.push(
      joinText(
        model.fields.map((f) => md`${literal(f.label)}: ${f.value}`),
        ' · ',
      ),
    );
  }
  // With stages: where it waits, and who approved the stages before.
  if (model?.path) lines.push(md`Stages: ${pathText(model)}`);
  const controls: Control[] = [];
  if (e.decide) {
    controls.push({ kind: 'button', action: APPROVE_ACTION, value, label: 'Approve', style: 'primary' });
    controls.push({ kind: 'button', action: REJECT_ACTION, value, label: 'Reject', style: 'danger' });
  }
  if (e.mine) controls.push({ kind: 'button', action: WITHDRAW_ACTION, value, label: 'Withdraw' });
  lines.push(md`Approval ${code(approval.id)}`);
  return { text: joinText(lines, '\n'), controls };
}
