import type {
  CalendarEntry,
  CalendarQuery,
  CallOptions,
  IdempotentCallOptions,
  Published,
  PublishInput,
  Scheduled,
  ScheduleInput,
} from '../../core/video-api/video-api.js';
import type { Requester } from '../request.js';
import { envelope, reqList } from '../wire/common.js';
import {
  CalendarEntryWire,
  CancelledWire,
  PublishedWire,
  ScheduledWire,
  toCalendarEntry,
  toPublished,
  toScheduled,
} from '../wire/posts.js';
import { idempotentPost } from './idempotent-post.js';

/** /posts and /calendar: publishing now, scheduling, cancelling, and the schedule. */
export class PostsResource {
  constructor(private readonly client: Requester) {}

  async publish(body: PublishInput, o: IdempotentCallOptions): Promise<Published> {
    const data = await idempotentPost(this.client, { route: '/posts', body, schema: PublishedWire }, o);
    return toPublished(data);
  }

  async schedule(body: ScheduleInput, o: IdempotentCallOptions): Promise<Scheduled> {
    const data = await idempotentPost(
      this.client,
      { route: '/posts/schedule', body, schema: ScheduledWire },
      o,
    );
    return toScheduled(data, body.scheduledTime);
  }

  /** DELETE /posts/{videoId}; a `ConflictError` (409) when nothing is scheduled any more. */
  async cancel(videoId: string, o?: CallOptions): Promise<{ cancelled: boolean }> {
    const { data } = await this.client.request(
      { method: 'DELETE', route: '/posts/:id', params: { id: videoId }, schema: envelope(CancelledWire) },
      o,
    );
    return { cancelled: data.cancelled ?? true };
  }

  async calendar(q: CalendarQuery, o?: CallOptions): Promise<CalendarEntry[]> {
    const { data } = await this.client.request(
      {
        method: 'GET',
        route: '/calendar',
        query: { startDate: q.startDate, endDate: q.endDate, platform: q.platform, status: q.status },
        schema: envelope(reqList(CalendarEntryWire)),
      },
      o,
    );
    return data.map(toCalendarEntry);
  }
}
