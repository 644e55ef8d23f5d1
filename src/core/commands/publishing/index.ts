import type { CommandModule } from '../../parse/command-spec.js';
import { calendarCommand } from './calendar.js';
import { metaBlockForm, metaCommand, metaEditAction, metaPickForm } from './meta.js';
import { publishAccountAction, publishButton, publishCommand, publishFormSpec } from './publish.js';
import { publishRetryAction } from './publish-retry.js';
import { publishSetFormSpec } from './publish-set-form.js';
import { approved, effects } from './replays.js';
import { rescheduleCommand } from './reschedule.js';
import { retryPostAction } from './retry-post.js';
import { scheduleButton, scheduleCommand, scheduleFormSpec } from './schedule.js';
import { scheduleBestAction } from './schedule-best.js';
import { scheduleCancelAction, scheduleKeepAction, scheduleMoveAction } from './schedule-choice.js';
import { slotAnywayAction, slotCancelAction, slotNextAction } from './schedule-slots.js';
import { slotsCommand } from './slots.js';
import { unscheduleCommand } from './unschedule.js';

/** The publishing commands, their buttons and forms. */
export const publishingModule: CommandModule = {
  commands: [
    metaCommand,
    publishCommand,
    scheduleCommand,
    rescheduleCommand,
    slotsCommand,
    unscheduleCommand,
    calendarCommand,
  ],
  actions: [
    metaEditAction,
    publishButton,
    publishAccountAction,
    publishRetryAction,
    scheduleButton,
    scheduleBestAction,
    scheduleMoveAction,
    scheduleKeepAction,
    scheduleCancelAction,
    slotNextAction,
    slotAnywayAction,
    slotCancelAction,
    retryPostAction,
  ],
  forms: [metaBlockForm, metaPickForm, publishFormSpec, publishSetFormSpec, scheduleFormSpec],
  approved,
  effects,
};
