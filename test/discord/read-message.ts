/**
 * Reading a Discord message back the way a member sees it, whichever shape it has: a Components V2 card (a
 * container of text displays, galleries, sections and rows; flag IS_COMPONENTS_V2) or an embed message (from
 * before V2, and form launchers). Tests assert through these so they read the same for both shapes.
 */

// biome-ignore lint/suspicious/noExplicitAny: tests read loosely typed Discord JSON
type Json = Record<string, any>;

export const IS_COMPONENTS_V2 = 1 << 15;

/** What these helpers need of a message (a fake's message, a request body, a callback's data). */
export interface Readable {
  components?: Json[];
  embeds?: Json[] | null;
  content?: string | null;
  flags?: number;
}

export const isV2 = (m: Readable): boolean => ((m.flags ?? 0) & IS_COMPONENTS_V2) !== 0;

/** Every component, nested ones included (container children, row children, section texts and accessory). */
export function allComponents(components: readonly Json[] = []): Json[] {
  return components.flatMap((c) => [
    c,
    ...allComponents((c.components ?? []) as Json[]),
    ...(c.accessory ? [c.accessory as Json] : []),
  ]);
}

/** Every component of a message, nested ones included (what Discord counts against its 40). */
export const componentsOf = (m: Readable): Json[] => allComponents(m.components);

/** The texts of the text displays, in order. */
export const textDisplaysOf = (m: Readable): string[] =>
  allComponents(m.components).flatMap((c) => (c.type === 10 ? [String(c.content)] : []));

/** Buttons and selects, wherever they sit (rows, section accessories), in order. */
export const controlsIn = (m: Readable): Json[] =>
  allComponents(m.components).filter((c) => c.type === 2 || c.type === 3);

/** The card's first container (V2). */
export const containerOf = (m: Readable): Json | undefined => (m.components ?? []).find((c) => c.type === 17);

/** The title: the embed's, or the V2 card's `###` heading (a linked title without its link). */
export function titleOf(m: Readable): string {
  if (!isV2(m)) return String(m.embeds?.[0]?.title ?? '');
  const container = containerOf(m);
  const first = container ? textDisplaysOf({ components: [container] })[0] : undefined;
  const heading = /^### (.*)$/m.exec(first ?? '')?.[1] ?? '';
  return /^\[(.*)\]\(\S+\)$/.exec(heading)?.[1] ?? heading;
}

/** Everything readable: content, embed titles, descriptions, fields and footers, or every text display. */
export function textOf(m: Readable): string {
  if (isV2(m) || !m.embeds?.length) {
    // The heading and small-print markers are layout, not words: `### Title` reads as `Title`.
    const texts = textDisplaysOf(m).map((t) => t.replace(/^(### |-# )/gm, ''));
    return [m.content, ...texts].filter(Boolean).join('\n');
  }
  return [
    m.content,
    ...m.embeds.flatMap((e) => [
      e.title,
      e.description,
      ...(e.fields ?? []).map((f: Json) => `${f.name}: ${f.value}`),
      e.footer?.text,
    ]),
  ]
    .filter(Boolean)
    .join('\n');
}

/** The small print: the last embed's footer, or the V2 card's `-#` lines (without the marker). */
export function contextOf(m: Readable): string {
  if (!isV2(m)) return String(m.embeds?.at(-1)?.footer?.text ?? '');
  return textDisplaysOf(m)
    .flatMap((t) => t.split('\n'))
    .flatMap((line) => (line.startsWith('-# ') ? [line.slice(3)] : []))
    .join('\n');
}

/** The accent: the container's colour, or the first embed's. */
export const accentOf = (m: Readable): number | undefined =>
  isV2(m) ? containerOf(m)?.accent_color : m.embeds?.[0]?.color;

/** The media galleries, each as its items' URLs and descriptions. */
export const galleriesOf = (m: Readable): { url: string; description?: string }[][] =>
  allComponents(m.components)
    .filter((c) => c.type === 12)
    .map((g) =>
      (g.items as Json[]).map((i) => ({
        url: String(i.media?.url),
        ...(i.description ? { description: String(i.description) } : {}),
      })),
    );

/** The sections (V2), each with its text and accessory. */
export const sectionsOf = (m: Readable): { text: string; accessory: Json }[] =>
  allComponents(m.components)
    .filter((c) => c.type === 9)
    .map((s) => ({
      text: (s.components as Json[]).map((t) => String(t.content)).join('\n'),
      accessory: s.accessory as Json,
    }));

/** Images shown: the embeds' images, or every gallery item and thumbnail. */
export function imagesOf(m: Readable): string[] {
  if (!isV2(m)) return (m.embeds ?? []).flatMap((e) => (e.image?.url ? [String(e.image.url)] : []));
  return allComponents(m.components).flatMap((c) => {
    if (c.type === 12) return (c.items as Json[]).map((i) => String(i.media?.url));
    return c.type === 11 ? [String(c.media?.url)] : [];
  });
}

/** The video id a card names in its small print (`id `vid_…``). */
export function videoIdOf(m: Readable): string | undefined {
  return /\bid `?(\w+)`?/.exec(contextOf(m) || textOf(m))?.[1];
}
