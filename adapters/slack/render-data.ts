/**
 * A card's table, charts and peer sections in Slack's newest blocks (a data table, data visualizations, a
 * carousel of cards) where the workspace takes them (`native`), else in the classic blocks: a bulleted line per
 * row, a chart's numbers as words, the sections one under another (render.ts).
 */
import type { types } from '@slack/bolt';
import type { Chart, Section, Table } from '../../src/core/index.js';
import { chartHeading, chartPoints, fitTableLines, literal, say } from '../../src/core/index.js';
import { CLASSIC, type NativeBlock } from './block-support.js';
import { CHARTS_PER_MESSAGE, chartBlock, SLACK_TABLE_LIMITS, tableBlock } from './data-blocks.js';
import {
  type ActionElement,
  type Block,
  controlElement,
  imageElement,
  LIMITS,
  textSections,
} from './render-parts.js';
import { toMrkdwn, truncateMrkdwn } from './text.js';

/**
 * A table as a data table where the workspace takes one, else one bulleted line per row; either holds at most
 * a data table's rows, and a line after it says how many more there are (the producer offers them elsewhere).
 */
export function tableBlocks(table: Table, native: ReadonlySet<NativeBlock>): Block[] {
  const fitted = native.has('data_table') ? tableBlock(table) : undefined;
  if (fitted) return [fitted.block as unknown as Block, ...moreRows(fitted.left)];
  const { lines, left } = fitTableLines(table, { rows: SLACK_TABLE_LIMITS.rows, characters: Infinity });
  if (lines.length === 0) return [];
  return [...textSections(lines.map((line) => `• ${line}`).join('\n')), ...moreRows(left)];
}

/** "…and 50 more rows" under a table cut short. */
function moreRows(left: number): Block[] {
  if (left <= 0) return [];
  const text = truncateMrkdwn(toMrkdwn(say('table-more-rows', { count: left })), LIMITS.contextText);
  return [{ type: 'context', elements: [{ type: 'mrkdwn', text }] }];
}

/** The first two charts as data visualizations where the workspace takes them; each other as its numbers. */
export function chartBlocks(charts: Chart[], native: ReadonlySet<NativeBlock>): Block[] {
  return charts.flatMap((chart, i): Block[] => {
    const drawn = native.has('data_visualization') && i < CHARTS_PER_MESSAGE ? chartBlock(chart) : undefined;
    if (drawn) return [drawn as unknown as Block];
    const text = [`📊 **${literal(chartHeading(chart))}**`, ...chartPoints(chart).map(literal)].join('\n');
    return [
      { type: 'section', text: { type: 'mrkdwn', text: truncateMrkdwn(toMrkdwn(text), LIMITS.sectionText) } },
    ];
  });
}

/** Cards in a carousel: at most ten, a body of at most 200 characters, at most three buttons each. */
const CAROUSEL = { cards: 10, title: 150, body: 200, actions: 3 } as const;

/**
 * Peer sections as Slack's carousel of cards (hero image, title, body, buttons), where the workspace takes it
 * and every section fits a card; otherwise undefined and the sections go one under another.
 */
export function carouselBlock(
  sections: Section[],
  counter: { n: number },
  options: { native?: ReadonlySet<NativeBlock>; compact?: boolean; withoutActions?: boolean },
): Block | undefined {
  const native = options.native ?? CLASSIC;
  if (!native.has('carousel') || !native.has('card') || options.compact) return undefined;
  if (sections.length === 0 || sections.length > CAROUSEL.cards) return undefined;
  if (sections.some((s) => s.fields?.length || (s.controls ?? []).some((c) => c.kind === 'select')))
    return undefined;
  const cards = sections.map((section) => {
    const actions = (section.controls ?? [])
      .filter((c) => !options.withoutActions || c.kind === 'link')
      .slice(0, CAROUSEL.actions)
      .map((c) => controlElement(c, counter.n++))
      .filter((e): e is ActionElement => e !== undefined);
    return {
      type: 'card',
      ...(section.image ? { hero_image: imageElement(section.image) } : {}),
      ...(section.title ? { title: mrkdwn(section.title, CAROUSEL.title) } : {}),
      ...(section.text ? { body: mrkdwn(section.text, CAROUSEL.body) } : {}),
      ...(actions.length > 0 ? { actions } : {}),
    };
  });
  return { type: 'carousel', elements: cards } as unknown as Block;
}

const mrkdwn = (text: string, max: number): types.MrkdwnElement => ({
  type: 'mrkdwn',
  text: truncateMrkdwn(toMrkdwn(text), max),
});
