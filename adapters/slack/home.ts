/**
 * The App Home tab: the core's dashboard cards (`homeCards`) stacked into one `home` view (at most 100
 * blocks), a divider between cards. The core leaves on them only buttons that work from the dashboard:
 * Link key, Approve / Reject, Render / Schedule / Show in DM, Unsubscribe (listeners/actions.ts runs them,
 * in the member's DM with the app when they answer in a conversation). An optional `notice` (the answer to a
 * click made here) leads the view, buttonless.
 */
import type { types } from '@slack/bolt';
import type { Card } from '../../src/core/index.js';
import { cardToBlocks, fallbackText, LIMITS, withoutImages } from './render.js';

export function homeView(
  dashboard: Card[],
  notice?: Card,
  options: { images?: boolean } = {},
): types.HomeView {
  const blocks: types.KnownBlock[] = [];
  const cards = notice ? [notice, ...dashboard] : dashboard;
  cards.forEach((card, i) => {
    const room = LIMITS.viewBlocks - blocks.length - (i > 0 ? 1 : 0);
    // Leave each later card at least a title and a line.
    const share = Math.max(2, Math.floor(room / (cards.length - i)));
    if (room < 2) return;
    if (i > 0) blocks.push({ type: 'divider' });
    blocks.push(
      ...cardToBlocks(options.images === false ? withoutImages(card) : card, {
        maxBlocks: Math.min(room, Math.max(share, 12)),
        withoutActions: notice !== undefined && card === notice,
        compact: true,
      }),
    );
  });
  return { type: 'home', blocks: blocks.slice(0, LIMITS.viewBlocks) };
}

/** The dashboard as plain text, when Slack refuses even its image-free blocks. */
export function textOnlyHomeView(dashboard: Card[], notice?: Card): types.HomeView {
  const cards = notice ? [notice, ...dashboard] : dashboard;
  const blocks: types.KnownBlock[] = cards.slice(0, LIMITS.viewBlocks).map((card) => ({
    type: 'section',
    text: { type: 'mrkdwn', text: fallbackText(card).slice(0, 3000) || ' ' },
  }));
  return { type: 'home', blocks };
}
