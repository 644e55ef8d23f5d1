/**
 * The team's videos newest first, read a page of 100 (the API's largest) at a time: what the name references,
 * `videos --search` and the CSV export walk. The walk ends at the list's end, at `maxPages`, or when the
 * caller stops reading; a total the service got wrong cannot make it loop forever (an empty page ends it).
 */
import type { VideoApi, VideoListItem } from './video-api.js';

/** The API's largest page. */
export const VIDEO_PAGE_SIZE = 100;

export interface VideoPage {
  /** 1-based, as the API counts. */
  page: number;
  items: VideoListItem[];
  /** Whether a later page holds more. */
  more: boolean;
  /** The list's size as the service reports it. */
  total: number;
}

export async function* videoPages(
  api: VideoApi,
  o: { maxPages: number; from?: number; archived?: boolean },
): AsyncGenerator<VideoPage> {
  const first = o.from ?? 1;
  for (let page = first; page < first + o.maxPages; page++) {
    const { items, pagination } = await api.videos.list({
      page,
      limit: VIDEO_PAGE_SIZE,
      ...(o.archived !== undefined ? { archived: o.archived } : {}),
    });
    const more = items.length > 0 && page * (pagination.limit || VIDEO_PAGE_SIZE) < pagination.total;
    yield { page, items, more, total: pagination.total };
    if (!more) return;
  }
}
