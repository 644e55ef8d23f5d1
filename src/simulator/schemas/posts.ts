import { z } from 'zod';
import { CALENDAR_STATUSES, PLATFORMS, PRIVACY_STATUSES } from '../vocabulary.js';
import { httpUrl, nonEmpty } from './common.js';

export const publishBody = z.strictObject({
  videoId: nonEmpty,
  platform: z.enum(PLATFORMS),
  title: z.string().optional(),
  description: z.string().optional(),
  privacyStatus: z.enum(PRIVACY_STATUSES).optional(),
  authId: nonEmpty.optional(),
  // The spec mentions an explicit videoUrl in place of a rendered video without giving its type; a URL it is.
  videoUrl: httpUrl.optional(),
});

export const scheduleBody = z.strictObject({
  videoId: nonEmpty,
  platforms: z.array(z.enum(PLATFORMS)).min(1),
  scheduledTime: z.iso.datetime({ offset: true }),
});

export const calendarQuery = z.strictObject({
  startDate: nonEmpty,
  endDate: nonEmpty,
  platform: z.enum(PLATFORMS).optional(),
  status: z.enum(CALENDAR_STATUSES).optional(),
});
