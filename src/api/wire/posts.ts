import { z } from 'zod';
import type { CalendarEntry, Published, Scheduled } from '../../core/video-api/video-api.js';
import { compact, optBoolean, optText, optUrl, reqId, reqText } from './common.js';

/** POST /posts: it was published; the post's URL is shown when the service gives one. */
export const PublishedWire = z.object({ postUrl: optUrl() });
export const toPublished = (wire: z.output<typeof PublishedWire>): Published => compact(wire);

/** POST /posts/schedule: it was scheduled; a time the service left out is the one asked for. */
export const ScheduledWire = z.object({ scheduledTime: optText() });
export const toScheduled = (wire: z.output<typeof ScheduledWire>, asked: string): Scheduled => ({
  scheduledTime: wire.scheduledTime ?? asked,
});

/** DELETE /posts/{id}: a 200 without `cancelled` means it was cancelled (nothing scheduled is a 409). */
export const CancelledWire = z.object({ cancelled: optBoolean() });

/** An entry without any of these is dropped from the calendar (counted). */
export const CalendarEntryWire = z.object({
  id: reqId(),
  projectId: reqId(),
  /** Open: a platform value. */
  platform: reqText(),
  /** Open: scheduled, posted, failed. */
  status: reqText(),
  scheduledTime: reqText(),
});
export const toCalendarEntry = (wire: z.output<typeof CalendarEntryWire>): CalendarEntry => ({ ...wire });
