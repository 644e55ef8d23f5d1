import { z } from 'zod';
import type { CalendarEntry, Published, Scheduled } from '../../core/video-api.js';
import { compact, opt } from './common.js';

export const PublishedWire = z.object({
  platform: z.string(),
  videoId: z.string(),
  postUrl: opt(z.string()),
});
export const toPublished = (wire: z.output<typeof PublishedWire>): Published => compact(wire);

export const ScheduledWire = z.object({
  taskId: opt(z.string()),
  platforms: z.array(z.string()),
  scheduledTime: z.string(),
});
export const toScheduled = (wire: z.output<typeof ScheduledWire>): Scheduled => compact(wire);

export const CancelledWire = z.object({ cancelled: z.boolean() });

export const CalendarEntryWire = z.object({
  id: z.string(),
  projectId: z.string(),
  /** Open: a platform value. */
  platform: z.string(),
  /** Open: scheduled, posted, failed. */
  status: z.string(),
  scheduledTime: z.string(),
});
export const toCalendarEntry = (wire: z.output<typeof CalendarEntryWire>): CalendarEntry => ({ ...wire });
