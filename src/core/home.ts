/**
 * A member's dashboard (Slack App Home), built from the same cards the commands answer with: who they act
 * as, credits, recent videos, the next 7 days of the calendar, their approvals inbox, and what this
 * workspace's channels follow. Platform-neutral: the adapter only lays the cards out.
 */
import { workspaceOf } from './address.js';
import type { Bot } from './bot.js';
import type { Card } from './cards.js';
import type { RequestInfo } from './context.js';
import { formatMention } from './people/mentions.js';
import type { Store } from './ports.js';
import { WHAT_IT_POSTS } from './settings/subscriptions.js';
import { channel as channelToken, code, command } from './text.js';

/** The commands whose cards make the dashboard, in order. */
const SECTIONS = ['whoami', 'credits', 'videos', 'calendar', 'approvals'] as const;

/**
 * Dashboard cards whose buttons work from the dashboard: the approvals inbox, whose clicks are decided in the
 * request's own conversation (src/core/approvals/reach.ts). Every other card's buttons need a channel to
 * answer in and to run under, so the adapter leaves them out.
 */
const ACTIONABLE = new WeakSet<Card>();
const ACTIONABLE_SECTIONS: ReadonlySet<string> = new Set(['approvals']);

/** Whether `card` (from `homeCards`) keeps its buttons on the dashboard. */
export const actionableOnHome = (card: Card): boolean => ACTIONABLE.has(card);

export async function homeCards(bot: Bot, store: Store, req: RequestInfo): Promise<Card[]> {
  const cards: Card[] = [];
  const first = await bot.handleText(req, SECTIONS[0]);
  const cardOf = (r: Awaited<ReturnType<Bot['handleText']>>) =>
    r.kind === 'message' || r.kind === 'update' ? r.card : undefined;
  const whoami = cardOf(first);
  if (whoami) cards.push(whoami);
  // Not linked (or the key is refused): the other sections would repeat the same error.
  if (whoami?.tone !== 'danger') {
    const rest = await Promise.all(SECTIONS.slice(1).map((command) => bot.handleText(req, command)));
    rest.forEach((response, i) => {
      const card = cardOf(response);
      if (!card) return;
      if (ACTIONABLE_SECTIONS.has(SECTIONS[i + 1] ?? '')) ACTIONABLE.add(card);
      cards.push(card);
    });
  }
  cards.push(await subscriptionsCard(store, workspaceOf(req.conversation)));
  return cards;
}

/** Every channel subscription of the workspace, grouped by channel. */
export async function subscriptionsCard(store: Store, workspace: string): Promise<Card> {
  const subs = await store.subscriptions.inWorkspace(workspace);
  if (subs.length === 0) {
    return {
      title: 'Channel subscriptions',
      tone: 'neutral',
      text: `No channel follows anything yet. In a channel, try ${command('subscribe', ['calendar'])} or ${command('subscribe', ['videos'])}.`,
    };
  }
  const lines = subs.map((s) => {
    const what = s.kind === 'series' ? `series ${code(s.target)}` : `**${s.kind}**`;
    const by = s.owner ? ` · by ${formatMention(s.owner)}` : '';
    // A channel token: Slack and Discord link it to the channel, the playground shows its id.
    return `• ${channelToken(s.conversation)}: ${what} — ${WHAT_IT_POSTS[s.kind]}${by}`;
  });
  return {
    title: 'Channel subscriptions',
    tone: 'info',
    text: lines.join('\n'),
    context: `Change them with ${command('subscribe')} and ${command('unsubscribe')} in the channel.`,
  };
}
