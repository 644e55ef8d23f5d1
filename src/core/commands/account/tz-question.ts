/**
 * `tz.pick`: the answer to the time-zone question (settings/time-zone-question.ts). Saves the chosen zone as
 * the member's own, as `tz <zone>` would, then runs what they had asked, its answer noting the zone.
 */

import { userError } from '../../dispatch/context.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { normalizeTimeZone } from '../../settings/time-zone.js';
import { parsePick, runAgain, TZ_PICK_ACTION } from '../../settings/time-zone-question.js';
import { type Card, message, type Response } from '../../text/cards.js';
import { command, literal, md } from '../../text/text.js';

const noted = (card: Card, zone: string): Card => {
  const note = md`Your time zone is now ${literal(zone)} (${command('tz')} to change it)`;
  return { ...card, context: card.context ? md`${note} · ${card.context}` : note };
};

export const tzPickAction: ActionSpec = {
  action: TZ_PICK_ACTION,
  async run(ctx, value, choice): Promise<Response> {
    const pick = parsePick(choice ?? value);
    if (!pick) throw userError('interaction-expired');
    const zone = normalizeTimeZone(pick.zone);
    if (!zone) throw userError('bad-timezone', { value: pick.zone });
    await ctx.deps.store.users.setTimeZone(ctx.req.user, zone);
    const bot = ctx.deps.dispatcher?.();
    const set = message({
      title: md`Time zone set: ${literal(zone)}`,
      tone: 'success',
      text: md`Run your command again.`,
    });
    if (!bot) return set;
    const response = await runAgain(bot, ctx.req, pick.replay);
    // A private answer takes the question's place; a public one is posted as usual.
    if (response.kind === 'message' && response.visibility === 'ephemeral' && !response.more)
      return { kind: 'update', card: noted(response.card, zone) };
    if (response.kind === 'message') return { ...response, card: noted(response.card, zone) };
    if (response.kind === 'update') return { ...response, card: noted(response.card, zone) };
    return response;
  },
};
