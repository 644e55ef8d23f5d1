/**
 * A member's dashboard (Slack App Home, `/reel home` elsewhere), built from the same cards the commands answer
 * with: who they act as (with a button to link a key), credits, recent videos (Render / Schedule / Show here
 * each), the next 7 days of the calendar, their approvals inbox (Approve / Reject), and what this workspace's
 * channels follow (Unsubscribe each). Platform-neutral: the adapter only lays the cards out.
 *
 * Every button left on the dashboard works without the conversation it was clicked in: each carries what it
 * acts on in its value and is re-authorised with the clicker's key on arrival. Those that answer with a card
 * in a conversation (`runsInDirectMessage`: a render, a schedule, a live card) run in the member's direct
 * messages with the app; the others answer on the dashboard itself. Buttons that need the conversation
 * (paging a list in place, say) are left out.
 */

import { APPROVE_ACTION, REJECT_ACTION, WITHDRAW_ACTION } from '../approvals/card.js';
import type { Bot } from '../dispatch/bot.js';
import type { RequestInfo } from '../dispatch/context.js';
import { formatMention } from '../people/mentions.js';
import { workspaceOf } from '../ports/address.js';
import type { Store, Subscription } from '../ports/index.js';
import { describeFilters } from '../settings/subscription-filters.js';
import { mayManageFromHome } from '../settings/subscription-visibility.js';
import {
  describeSubscription,
  seriesNameOf,
  subscriptionWatch,
  WHAT_IT_POSTS,
} from '../settings/subscriptions.js';
import type { Button, Card, Control, Section } from '../text/cards.js';
import { LIMITS } from '../text/cards.js';
import { isNumberCell, type TableCell } from '../text/table.js';
import { type CardText, channel as channelToken, command, joinText, literal, md } from '../text/text.js';

/** Opens the link form (the `link` command's private form). */
export const HOME_LINK_ACTION = 'home.link';
/** Stops one channel subscription; value `<kind>|<target>|<conversation>`. */
export const HOME_UNSUBSCRIBE_ACTION = 'home.unsubscribe';
/** A video's live card brought into the conversation (commands/videos/status.ts); the videos card's menu. */
const SHOW_HERE_ACTION = 'video.show-here';

/** Recent videos shown, each with its buttons. */
export const HOME_VIDEOS = 5;

/** Dashboard actions that answer with a card in a conversation: run in the member's direct messages. */
const IN_DIRECT_MESSAGE: ReadonlySet<string> = new Set(['video.render', 'video.schedule', SHOW_HERE_ACTION]);

/** Every action a dashboard button may have. */
const ON_HOME: ReadonlySet<string> = new Set([
  ...IN_DIRECT_MESSAGE,
  APPROVE_ACTION,
  REJECT_ACTION,
  WITHDRAW_ACTION,
  HOME_LINK_ACTION,
  HOME_UNSUBSCRIBE_ACTION,
]);

/** Whether a click on `action` from the dashboard runs in the member's direct messages with the app. */
export const runsInDirectMessage = (action: string): boolean => IN_DIRECT_MESSAGE.has(action);

/** Whether `control` works on the dashboard (link buttons always do). */
export const worksOnHome = (control: Control): boolean =>
  control.kind === 'link' || ON_HOME.has(control.action);

/**
 * Whether `card` (from `homeCards`) keeps its buttons on the dashboard: always, now that `homeCards` leaves
 * only buttons that work there. Kept for adapters written against the read-only dashboard.
 */
export const actionableOnHome = (_card: Card): boolean => true;

type Answer = Awaited<ReturnType<Bot['handleText']>>;
const cardOf = (r: Answer) => (r.kind === 'message' || r.kind === 'update' ? r.card : undefined);

/**
 * Where the dashboard shows: Slack's Home tab (its clicks answer in the member's direct messages) or a
 * conversation (`/reel home`: they answer right there).
 */
export type HomePlace = 'home-tab' | 'conversation';

export async function homeCards(
  bot: Bot,
  store: Store,
  { req, place = 'home-tab' }: { req: RequestInfo; place?: HomePlace },
): Promise<Card[]> {
  const cards: Card[] = [];
  const whoami = cardOf(await bot.handleText(req, 'whoami'));
  const linked = whoami !== undefined && whoami.tone !== 'danger';
  if (whoami) cards.push(withLinkButton(whoami, linked));
  // Not linked (or the key is refused): the other sections would repeat the same error.
  if (linked) {
    const [credits, videos, calendar, approvals] = (
      await Promise.all(['credits', 'videos', 'calendar', 'approvals'].map((c) => bot.handleText(req, c)))
    ).map(cardOf);
    if (credits) cards.push(onlyHomeControls(credits));
    if (videos) cards.push(videosCard(videos, place));
    if (calendar) cards.push(onlyHomeControls(calendar));
    if (approvals) cards.push(onlyHomeControls(approvals));
  }
  cards.push(await subscriptionsCard(store, req));
  return cards;
}

function withLinkButton(card: Card, linked: boolean): Card {
  const link: Button = {
    kind: 'button',
    action: HOME_LINK_ACTION,
    value: '',
    label: linked ? 'Link another key' : 'Link key',
    ...(linked ? {} : { style: 'primary' as const }),
  };
  const own = onlyHomeControls(card);
  return { ...own, controls: [...(own.controls ?? []), link] };
}

/** `card` without the buttons that need the conversation they were clicked in. */
function onlyHomeControls(card: Card): Card {
  const out: Card = { ...card };
  const keep = (controls: Control[] | undefined) => controls?.filter(worksOnHome) ?? [];
  if (card.controls) {
    const controls = keep(card.controls);
    if (controls.length > 0) out.controls = controls;
    else delete out.controls;
  }
  if (card.sections) {
    out.sections = card.sections.map((s) => {
      if (!s.controls) return s;
      const { controls: _all, ...rest } = s;
      const controls = keep(s.controls);
      return controls.length > 0 ? { ...rest, controls } : rest;
    });
  }
  return out;
}

/**
 * The `videos` card, newest first, cut to `HOME_VIDEOS`, each video a section with Render / Schedule / Show
 * here. Its table's rows and its menu's options name the videos in the same order (videos/list.ts).
 */
function videosCard(card: Card, place: HomePlace): Card {
  const show = place === 'home-tab' ? md`Show in DM` : md`Show here`;
  const where = place === 'home-tab' ? md`in your direct messages with me` : md`here`;
  const menu = card.controls?.find((c) => c.kind === 'select' && c.action === SHOW_HERE_ACTION);
  const ids = menu?.kind === 'select' ? menu.options.map((o) => o.value) : [];
  const rows = card.table?.rows ?? [];
  if (rows.length === 0 || ids.length !== rows.length) return onlyHomeControls(card);
  const sections: Section[] = rows.slice(0, HOME_VIDEOS).map((row, i) => {
    const id = ids[i] ?? '';
    const button = (action: string, label: string, primary = false): Button => ({
      kind: 'button',
      action,
      value: id,
      label,
      ...(primary ? { style: 'primary' as const } : {}),
    });
    return {
      text: rowText(row),
      controls: [
        button('video.render', 'Render', true),
        button('video.schedule', 'Schedule'),
        button(SHOW_HERE_ACTION, show),
      ],
    };
  });
  const { controls: _menu, table: _table, ...rest } = card;
  return {
    ...rest,
    title: md`Recent videos`,
    text: md`The newest ${sections.length}. Render, Schedule and ${show} answer ${where}; ${command('videos')} lists them all.`,
    sections,
  };
}

/** A row of a table as a section's text: the first cell in bold, the others on the next line. */
function rowText(row: TableCell[]): CardText {
  const [first, ...rest] = row.map((cell) => (isNumberCell(cell) ? literal(cell.text) : cell));
  const facts = rest.filter((cell) => cell !== '');
  return md`**${first ?? md``}**${facts.length > 0 ? md`\n${joinText(facts, ' · ')}` : md``}`;
}

const subscriptionValue = (s: Subscription): string =>
  `${s.kind}|${encodeURIComponent(s.target)}|${s.conversation}`;

/**
 * The workspace's channel subscriptions the member may see (`mayManageFromHome`: a workspace admin sees every
 * one, others those of conversations they are in), one per section with its Unsubscribe button.
 */
export async function subscriptionsCard(store: Store, req: RequestInfo): Promise<Card> {
  const all = await store.subscriptions.inWorkspace(workspaceOf(req.conversation));
  const shown = await Promise.all(all.map((s) => mayManageFromHome(req, s.conversation)));
  const subs = all.filter((_s, i) => shown[i]);
  const hidden = all.length - subs.length;
  const notIn = hidden > 0 ? md` Channels you are not in are left out.` : md``;
  if (subs.length === 0) {
    return {
      title: md`Channel subscriptions`,
      tone: 'neutral',
      text: md`${hidden > 0 ? md`No channel you are in follows anything yet.` : md`No channel follows anything yet.`} In a channel, try ${command('subscribe', ['calendar'])} or ${command('subscribe', ['videos'])}.`,
    };
  }
  // A series by its name (as its watch remembers it), like `subscribe` lists it.
  const names = await Promise.all(
    subs.map(async (s) =>
      s.kind === 'series' ? seriesNameOf(await subscriptionWatch(store, s)) : undefined,
    ),
  );
  const sections: Section[] = subs.map((s, i) => {
    const what = describeSubscription(s, names[i]);
    const by = s.owner ? md` · by ${formatMention(s.owner)}` : md``;
    // A channel token: Slack and Discord link it to the channel, the playground shows its id.
    const filtered = describeFilters(s.filters, s.kind);
    const only = filtered ? md` · ${filtered}` : md``;
    const text = md`${channelToken(s.conversation)}: ${what} — ${WHAT_IT_POSTS[s.kind]}${only}${by}`;
    const value = subscriptionValue(s);
    if (value.length > LIMITS.actionValue) return { text };
    const unsubscribe: Button = {
      kind: 'button',
      action: HOME_UNSUBSCRIBE_ACTION,
      value,
      label: 'Unsubscribe',
      confirm: {
        title: md`Unsubscribe?`,
        text: md`${channelToken(s.conversation)} stops following ${what}.`,
        confirm: 'Unsubscribe',
        deny: 'Keep',
      },
    };
    return { text, controls: [unsubscribe] };
  });
  return {
    title: md`Channel subscriptions`,
    tone: 'info',
    sections,
    context: md`Or change them with ${command('subscribe')} and ${command('unsubscribe')} in the channel.${notIn}`,
  };
}
