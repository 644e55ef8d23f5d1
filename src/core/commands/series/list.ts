/** `series list`: every series of the team with its state, niche and source. */

import { defineCommand } from '../../parse/command-spec.js';
import { clip } from '../../series/series-common.js';
import type { Card } from '../../text/cards.js';
import { catalogLabeller } from '../../text/labels.js';
import { code, command, hole, joinText, literal, md } from '../../text/text.js';

/** A chat message stays readable up to about this many lines; the rest is counted. */
const MAX_LINES = 40;

export const listCommand = defineCommand({
  name: 'series list',
  summary: 'List your series: active or paused, niche and source',
  options: [],
  examples: ['series list'],
  async run(ctx) {
    const api = await ctx.api();
    const all = await api.series.list();
    if (all.length === 0) {
      return {
        kind: 'message',
        visibility: 'ephemeral',
        card: {
          title: md`No series yet`,
          tone: 'info',
          text: md`A series generates and posts an episode on a schedule, without anyone lifting a finger.
Start one with ${command('series create')} (a form opens) or ${command('series create', ['Night Terrors'], { source: 'ai_story', schedule: 'daily 21:00' })}.`,
        },
      };
    }
    const active = all.filter((s) => !s.paused).length;
    const [source, niche] = await Promise.all([
      catalogLabeller(ctx, 'sources'),
      catalogLabeller(ctx, 'niches'),
    ]);
    const lines = all.slice(0, MAX_LINES).map((s) => {
      const facts = [
        s.paused ? md`⏸️ paused` : md`▶️ active`,
        s.niche ? literal(niche(s.niche)) : undefined,
        s.source ? md`source ${literal(source(s.source))}` : undefined,
      ];
      return md`• **${literal(clip(s.name, 80))}** — ${joinText(facts, ' · ')} · ${code(s.id)}`;
    });
    if (all.length > MAX_LINES) lines.push(md`…and ${all.length - MAX_LINES} more.`);
    const card: Card = {
      title: md`Series (${all.length})`,
      tone: 'neutral',
      text: joinText(lines, '\n'),
      context: md`${active} active · ${all.length - active} paused · details: ${command('series show', [hole('name')])}`,
    };
    return { kind: 'message', visibility: 'ephemeral', card };
  },
});
