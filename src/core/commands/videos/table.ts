/**
 * A page of videos as a table (`videos`, `videos --search`): name, model as the catalog names it, when it was
 * made in the caller's zone, its MP4 and the id to type.
 */
import type { Table } from '../../text/table.js';
import { type CardText, code, link, literal, md } from '../../text/text.js';
import { formatListTime } from '../../time/format.js';
import type { VideoListItem } from '../../video-api/video-api.js';

/** One row per video: its name, model, when it was made, its MP4 and the id to type. */
export function videosTable(
  items: readonly VideoListItem[],
  o: { zone: string; now: number; model: (value: string) => string },
): Table {
  const created = (at: string | undefined): CardText => {
    const ms = at === undefined ? Number.NaN : Date.parse(at);
    return Number.isFinite(ms) ? formatListTime(ms, o.zone, o.now) : md`unknown`;
  };
  return {
    caption: 'Videos',
    columns: [
      { label: 'Video' },
      { label: 'Model' },
      { label: 'Created' },
      { label: 'MP4' },
      { label: 'Id' },
    ],
    rows: items.map((v) => [
      literal(v.name),
      v.model ? literal(o.model(v.model)) : literal(''),
      created(v.createdAt),
      v.renderedVideoUrl ? link('MP4', v.renderedVideoUrl) : literal(''),
      code(v.id),
    ]),
  };
}
