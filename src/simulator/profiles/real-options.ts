/**
 * GET /options without `kind` as the real service answers it. The spec says only that it "lists the available
 * kinds" (shape not shown); the spec profile sends `{ kinds: [...] }`, the real one an object keyed by kind,
 * each with a label and its number of values, plus the version key it leaks on documents.
 */
import { OPTION_KINDS, OPTIONS } from '../catalog.js';

type Json = Record<string, unknown>;

const LABELS: Record<(typeof OPTION_KINDS)[number], string> = {
  sources: 'Content sources',
  styles: 'Visual styles',
  niches: 'Niches',
  languages: 'Languages',
  durations: 'Episode durations',
  models: 'Visual models',
  captionThemes: 'Caption themes',
  music: 'Music moods',
  backgrounds: 'Background videos',
  subreddits: 'Subreddits',
};

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{ kinds: [...] }` (the listing) becomes `{ sources: { label, count }, …, __v: 0 }`; a catalog is untouched. */
export function realOptions(data: unknown): unknown {
  if (!isObject(data) || !Array.isArray(data.kinds)) return isObject(data) ? { ...data, __v: 0 } : data;
  const listing: Json = {};
  for (const kind of OPTION_KINDS) {
    if (data.kinds.includes(kind)) listing[kind] = { label: LABELS[kind], count: OPTIONS[kind].length };
  }
  return { ...listing, __v: 0 };
}
