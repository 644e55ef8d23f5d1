/**
 * The documented limits of Slack's newest message blocks, checked as Slack checks them: a message beyond one
 * is refused whole (`invalid_blocks`), one `[ERROR] <reason> [json-pointer:/blocks/…]` line per breach. The
 * fake Slack refuses such payloads, and `expectValidBlocks` fails on them, so an adapter that sends one fails
 * its test. Sources: https://docs.slack.dev/reference/block-kit/blocks/carousel-block, …/card-block,
 * …/data-table-block, …/data-visualization-block (see docs/native-surfaces.md); the two charts per message
 * are undocumented, Slack refuses a third.
 */

type Node = Record<string, unknown>;

/** What a breach reads like, where it is. */
type Breach = (reason: string, path: string) => void;

const CARD = { title: 150, subtitle: 150, body: 200, subtext: 200, actions: 3 } as const;
const TABLE = { rows: 100, columns: 20, characters: 10_000, pageSize: 100 } as const;
const CHART = { perMessage: 2, title: 50, label: 20, axisLabel: 50, series: 6, points: 20 } as const;
const IMAGE = { url: 3000, alt: 2000 } as const;

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;
const list = (value: unknown): unknown[] | undefined => (Array.isArray(value) ? value : undefined);

/** The lines Slack answers a message of `blocks` with when it breaks a limit of the newest blocks; [] if none. */
export function blockLimitErrors(blocks: unknown): string[] {
  const lines: string[] = [];
  const breach: Breach = (reason, path) => lines.push(`[ERROR] ${reason} [json-pointer:${path}]`);
  const all = list(blocks) ?? [];
  let charts = 0;
  let cells = 0;
  for (const [i, block] of all.entries()) {
    if (!isNode(block)) continue;
    const at = `/blocks/${i}`;
    if (block.type === 'carousel') checkCarousel(block, at, breach);
    if (block.type === 'card') checkCard(block, at, breach);
    if (block.type === 'data_table') cells += checkTable(block, at, breach);
    if (block.type === 'data_visualization') {
      if (++charts > CHART.perMessage) breach(`no more than ${CHART.perMessage} charts per message`, at);
      checkChart(block, at, breach);
    }
  }
  if (cells > TABLE.characters)
    breach(`table cells must be less than ${TABLE.characters + 1} characters per message`, '/blocks');
  return lines;
}

function text(node: unknown, max: number, path: string, breach: Breach, required = false): void {
  const value = isNode(node) ? node.text : node;
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value.length === 0) {
    breach('must be a non-empty string', path);
    return;
  }
  if (value.length > max) breach(`must be less than ${max + 1} characters`, path);
}

function items(value: unknown, range: [number, number], path: string, breach: Breach): unknown[] {
  const found = list(value);
  if (!found) {
    breach('must be an array', path);
    return [];
  }
  if (found.length < range[0]) breach(`must provide at least ${range[0]} items`, path);
  if (found.length > range[1]) breach(`no more than ${range[1]} items allowed`, path);
  return found;
}

function checkCarousel(block: Node, at: string, breach: Breach): void {
  const cards = items(block.elements, [1, 10], `${at}/elements`, breach);
  for (const [i, card] of cards.entries()) {
    const where = `${at}/elements/${i}`;
    if (!isNode(card) || card.type !== 'card') breach('a carousel holds only card blocks', `${where}/type`);
    else checkCard(card, where, breach);
  }
}

function checkCard(card: Node, at: string, breach: Breach): void {
  if (!['hero_image', 'title', 'actions', 'body'].some((key) => card[key] !== undefined))
    breach('must provide one of hero_image, title, actions or body', at);
  for (const key of ['title', 'subtitle', 'body', 'subtext'] as const)
    if (card[key] !== undefined) text(card[key], CARD[key], `${at}/${key}/text`, breach, true);
  if (card.actions !== undefined) {
    const actions = items(card.actions, [1, CARD.actions], `${at}/actions`, breach);
    for (const [i, action] of actions.entries())
      if (!isNode(action) || action.type !== 'button') breach('must be a button', `${at}/actions/${i}/type`);
  }
  if (card.hero_image !== undefined) checkImage(card.hero_image, `${at}/hero_image`, breach);
}

/** An image element: a URL (or a Slack file) and its alt text. */
function checkImage(image: unknown, at: string, breach: Breach): void {
  if (!isNode(image) || image.type !== 'image') {
    breach('must be an image element', `${at}/type`);
    return;
  }
  if (image.slack_file === undefined) text(image.image_url, IMAGE.url, `${at}/image_url`, breach, true);
  text(image.alt_text, IMAGE.alt, `${at}/alt_text`, breach, true);
}

/** Checks a data table; returns the characters of its cells. */
function checkTable(block: Node, at: string, breach: Breach): number {
  text(block.caption, Number.POSITIVE_INFINITY, `${at}/caption`, breach, true);
  const size = block.page_size;
  if (size !== undefined && (!Number.isInteger(size) || Number(size) < 1 || Number(size) > TABLE.pageSize))
    breach(`must be between 1 and ${TABLE.pageSize}`, `${at}/page_size`);
  const rows = items(block.rows, [2, TABLE.rows + 1], `${at}/rows`, breach);
  const width = list(rows[0])?.length ?? 0;
  let characters = 0;
  for (const [r, row] of rows.entries()) {
    const cells = items(row, [1, TABLE.columns], `${at}/rows/${r}`, breach);
    if (cells.length !== width) breach('every row must have as many cells as the header', `${at}/rows/${r}`);
    for (const [c, cell] of cells.entries())
      characters += checkCell(cell, r === 0, `${at}/rows/${r}/${c}`, breach);
  }
  if (characters > TABLE.characters)
    breach(`table cells must be less than ${TABLE.characters + 1} characters`, `${at}/rows`);
  return characters;
}

/** Checks a table cell; returns its characters. */
function checkCell(cell: unknown, header: boolean, at: string, breach: Breach): number {
  if (!isNode(cell)) {
    breach('must be a cell object', at);
    return 0;
  }
  if (cell.type === 'raw_text') {
    text(cell.text, Number.POSITIVE_INFINITY, `${at}/text`, breach, true);
    return String(cell.text ?? '').length;
  }
  if (cell.type === 'raw_number') {
    if (typeof cell.value !== 'number' || !Number.isFinite(cell.value))
      breach('must be a number', `${at}/value`);
    text(cell.text, Number.POSITIVE_INFINITY, `${at}/text`, breach, true);
    return String(cell.text ?? '').length;
  }
  if (cell.type === 'rich_text' && !header) return richTextLength(cell);
  breach(header ? 'a header cell must be raw_text or raw_number' : 'unsupported cell type', `${at}/type`);
  return 0;
}

function richTextLength(node: unknown): number {
  if (Array.isArray(node)) return node.reduce<number>((n, child) => n + richTextLength(child), 0);
  if (!isNode(node)) return 0;
  const own = typeof node.text === 'string' ? node.text.length : 0;
  return own + richTextLength(node.elements);
}

function checkChart(block: Node, at: string, breach: Breach): void {
  text(block.title, CHART.title, `${at}/title`, breach, true);
  const chart = isNode(block.chart) ? block.chart : undefined;
  if (!chart) breach('must provide a chart', `${at}/chart`);
  else if (chart.type === 'pie') checkPie(chart, `${at}/chart`, breach);
  else if (['bar', 'line', 'area'].includes(String(chart.type))) checkSeries(chart, `${at}/chart`, breach);
  else breach(`unsupported chart type: ${String(chart.type)}`, `${at}/chart/type`);
}

/** A pie: 1–6 segments, each labelled and above zero. */
function checkPie(chart: Node, at: string, breach: Breach): void {
  const segments = items(chart.segments, [1, CHART.series], `${at}/segments`, breach);
  for (const [i, segment] of segments.entries()) {
    const s = isNode(segment) ? segment : {};
    text(s.label, CHART.label, `${at}/segments/${i}/label`, breach, true);
    if (typeof s.value !== 'number' || !(s.value > 0))
      breach('must be greater than 0', `${at}/segments/${i}/value`);
  }
}

/** A bar, line or area chart: 1–20 categories, 1–6 uniquely named series of points on those categories. */
function checkSeries(chart: Node, at: string, breach: Breach): void {
  const axis = isNode(chart.axis_config) ? chart.axis_config : undefined;
  if (!axis) {
    breach('must provide axis_config', `${at}/axis_config`);
    return;
  }
  const categories = items(axis.categories, [1, CHART.points], `${at}/axis_config/categories`, breach);
  for (const [i, category] of categories.entries())
    text(category, CHART.label, `${at}/axis_config/categories/${i}`, breach, true);
  for (const key of ['x_label', 'y_label'] as const)
    text(axis[key], CHART.axisLabel, `${at}/axis_config/${key}`, breach);
  const series = items(chart.series, [1, CHART.series], `${at}/series`, breach);
  const names = new Set<unknown>();
  for (const [i, one] of series.entries()) {
    const s = isNode(one) ? one : {};
    const where = `${at}/series/${i}`;
    text(s.name, CHART.label, `${where}/name`, breach, true);
    if (names.has(s.name)) breach('series names must be unique', `${where}/name`);
    names.add(s.name);
    const points = items(s.data, [1, CHART.points], `${where}/data`, breach);
    for (const [p, point] of points.entries()) {
      const { label, value } = isNode(point) ? point : {};
      if (!categories.includes(label)) breach('must be one of the categories', `${where}/data/${p}/label`);
      if (typeof value !== 'number') breach('must be a number', `${where}/data/${p}/value`);
    }
  }
}
