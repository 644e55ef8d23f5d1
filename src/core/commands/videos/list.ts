/**
 * `videos [--page N] [--archived]`: the team's videos, newest first, a page at a time with Prev/Next buttons
 * (their value carries the page number, so a click is self-contained).
 */
import type { Card, Control, Response, Section } from '../../cards.js';
import { message } from '../../cards.js';
import type { ActionSpec } from '../../command-spec.js';
import { type CommandSpec, defineCommand } from '../../command-spec.js';
import { type CommandContext, userError } from '../../context.js';
import { excerpt, formatTime } from '../../format/video.js';
import { code, command, hole, link, literal } from '../../text.js';
import { SHOW_HERE_ACTION } from './status.js';

export const PAGE_SIZE = 10;

async function listPage(ctx: CommandContext, page: number, archived: boolean): Promise<Card> {
  const { items, pagination } = await (await ctx.api()).videos.list({ page, limit: PAGE_SIZE, archived });
  const pages = Math.max(1, Math.ceil(pagination.total / pagination.limit));
  const what = archived ? 'archived videos' : 'videos';
  if (items.length === 0 && pagination.total > 0) {
    throw userError('page-out-of-range', {
      page,
      what: 'list',
      pages: pages === 1 ? '1 page' : `${pages} pages`,
    });
  }
  if (items.length === 0) {
    return {
      title: archived ? 'No archived videos' : 'No videos yet',
      tone: 'info',
      text: archived
        ? `Nothing is archived. ${command('videos')} lists the current ones.`
        : `Create the first one with ${command('create', [hole('script')])} (or just ${command('create')} for a form), or caption existing media with ${command('caption', [hole('url')])}.`,
    };
  }
  const zone = await ctx.timeZone();
  const sections: Section[] = items.map((v) => {
    const facts = [
      v.model && literal(v.model),
      literal(formatTime(v.createdAt, zone)),
      v.renderedVideoUrl ? link('MP4', v.renderedVideoUrl) : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    const section: Section = { text: `**${literal(v.name)}**\n${facts}\n${code(v.id)}` };
    if (v.thumbnailUrl) section.image = { url: v.thumbnailUrl, alt: `Thumbnail of ${v.name}` };
    return section;
  });
  // One menu for the page (a button per video would overflow Discord's rows): the live card, here.
  const controls: Control[] = [
    {
      kind: 'select',
      action: SHOW_HERE_ACTION,
      placeholder: 'Show a live card here…',
      options: items.map((v) => ({ label: excerpt(v.name, 75), value: v.id })),
    },
  ];
  const flag = archived ? 'archived' : 'all';
  if (page > 1)
    controls.push({ kind: 'button', action: 'videos.page', value: `${page - 1}:${flag}`, label: '← Prev' });
  if (page < pages)
    controls.push({ kind: 'button', action: 'videos.page', value: `${page + 1}:${flag}`, label: 'Next →' });
  const first = (page - 1) * pagination.limit + 1;
  const card: Card = {
    title: archived ? 'Archived videos' : 'Videos',
    tone: 'info',
    text: `${first}–${first + items.length - 1} of ${pagination.total} ${what}, newest first. ${command('show', [hole('id')])} for details.`,
    sections,
    context: `Page ${page} of ${pages} · times in ${zone}`,
  };
  card.controls = controls;
  return card;
}

export const videosCommand: CommandSpec = defineCommand({
  name: 'videos',
  summary: 'List the team’s videos, newest first',
  options: [
    { name: 'page', kind: 'int', min: 1, description: 'Page number (10 per page)' },
    { name: 'archived', kind: 'boolean', description: 'List archived videos only' },
  ],
  examples: ['videos', 'videos --page 2', 'videos --archived'],
  async run(ctx, args) {
    return message(await listPage(ctx, args.page ?? 1, args.archived ?? false));
  },
});

/** Prev/Next: value `<page>:<all|archived>`; replaces the list in place. */
export const videosPageAction: ActionSpec = {
  action: 'videos.page',
  async run(ctx, value): Promise<Response> {
    const [pageText, flag] = value.split(':');
    const page = Number(pageText);
    if (!Number.isSafeInteger(page) || page < 1) throw userError('bad-button');
    return { kind: 'update', card: await listPage(ctx, page, flag === 'archived') };
  },
};
