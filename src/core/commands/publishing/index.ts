import type { CommandModule } from '../../parse/command-spec.js';
import { calendarCommand } from './calendar.js';
import { metaBlockForm, metaCommand, metaEditAction, metaPickForm } from './meta.js';
import { publishAccountAction, publishButton, publishCommand, publishFormSpec } from './publish.js';
import { approved, effects } from './replays.js';
import { rescheduleCommand } from './reschedule.js';
import { retryPostAction } from './retry-post.js';
import { scheduleButton, scheduleCommand, scheduleFormSpec } from './schedule.js';
import { scheduleCancelAction, scheduleKeepAction, scheduleMoveAction } from './schedule-choice.js';
import { unscheduleCommand } from './unschedule.js';

/** The publishing commands, their buttons and forms. */
export const publishingModule: CommandModule = {
  commands: [
    metaCommand,
    publishCommand,
    scheduleCommand,
    rescheduleCommand,
    unscheduleCommand,
    calendarCommand,
  ],
  actions: [
    metaEditAction,
    publishButton,
    publishAccountAction,
    scheduleButton,
    scheduleMoveAction,
    scheduleKeepAction,
    scheduleCancelAction,
    retryPostAction,
  ],
  forms: [metaBlockForm, metaPickForm, publishFormSpec, scheduleFormSpec],
  approved,
  effects,
};
