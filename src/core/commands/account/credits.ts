/**
 * `credits [--page N]`: the balance and the ledger (GET /credits), newest first, with Previous/Next
 * buttons. A page button re-reads with the clicker's own key and replaces the message.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import { clip, plural, signed } from '../../format/account.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import type { Button, Card, Control } from '../../text/cards.js';
import { message, type Response } from '../../text/cards.js';
import type { Table } from '../../text/table.js';
import { command, literal, md } from '../../text/text.js';
import { formatDateTime } from '../../time/format.js';
import type { LedgerEntry } from '../../video-api/video-api.js';

const PAGE_SIZE = 10;
export const CREDITS_PAGE_ACTION = 'credits.page';
/** The cheapest model (spec §2 cost table), for the low-balance hint. */
const CHEAPEST_VIDEO = 20;

export const creditsCommand: CommandSpec = defineCommand({
  name: 'credits',
  summary: 'Show the credit balance and recent transactions',
  options: [
    { name: 'page', kind: 'int', description: 'Ledger page (10 entries each)', min: 1, max: 100_000 },
  ],
  examples: ['credits', 'credits --page 2'],
  details: md`Spends are negative, top-ups, grants and refunds positive. Times are in your time zone (${command('tz')}). Costs per video: storyboard 20, motion_lite 50, motion_pro 100; rendering, publishing, captions and thumbnails are free.`,
  async run(ctx, args): Promise<Response> {
    return message(await creditsCard(ctx, args.page ?? 1));
  },
});

export const creditsPageAction: ActionSpec = {
  action: CREDITS_PAGE_ACTION,
  async run(ctx, value) {
    const page = Number(value);
    if (!Number.isSafeInteger(page) || page < 1) throw userError('interaction-expired');
    return { kind: 'update', card: await creditsCard(ctx, page) };
  },
};

async function creditsCard(ctx: CommandContext, page: number): Promise<Card> {
  const api = await ctx.api();
  const credits = await api.credits.get({ page, limit: PAGE_SIZE });
  const { total, limit } = credits.pagination;
  const pages = Math.max(1, Math.ceil(total / (limit || PAGE_SIZE)));
  if (page > pages && total > 0) {
    throw userError('page-out-of-range', { page, what: 'ledger', pages: plural(pages, 'page') });
  }
  const zone = await ctx.timeZone();
  const low =
    credits.balance < CHEAPEST_VIDEO
      ? md`\n⚠️ That is less than the cheapest video (storyboard, ${CHEAPEST_VIDEO}). Top up in the dashboard.`
      : md``;
  const card: Card = {
    title: md`Credits: ${credits.balance}`,
    tone: credits.balance < CHEAPEST_VIDEO ? 'warning' : 'info',
    text: md`Your team has **${credits.balance}** credits.${low}${
      credits.history.length > 0
        ? md``
        : total === 0
          ? md`\n\n_No transactions yet._`
          : md`\n\n_Nothing on this page._`
    }`,
    ...(credits.history.length > 0 ? { table: ledgerTable(credits.history, zone) } : {}),
    context: md`${total > 0 ? md`Page ${page} of ${pages} · ${plural(total, 'transaction')} · ` : md``}times in ${literal(zone)}`,
  };
  const controls: Control[] = [];
  if (page > 1) controls.push(pageButton(page - 1, '← Newer'));
  if (page < pages) controls.push(pageButton(page + 1, 'Older →'));
  if (controls.length > 0) card.controls = controls;
  return card;
}

/** The page's transactions, newest first: the change (a number that sorts), its kind, what it was, when. */
function ledgerTable(history: readonly LedgerEntry[], zone: string): Table {
  return {
    caption: 'Credit ledger',
    columns: [{ label: 'Change' }, { label: 'Kind' }, { label: 'What' }, { label: 'When' }],
    rows: history.map((e) => [
      { value: e.credits, text: signed(e.credits) },
      literal(e.type.replaceAll('_', ' ')),
      literal(clip(e.description, 120)),
      literal(formatDateTime(e.createdAt, zone)),
    ]),
  };
}

const pageButton = (page: number, label: string): Button => ({
  kind: 'button',
  action: CREDITS_PAGE_ACTION,
  value: String(page),
  label,
});
