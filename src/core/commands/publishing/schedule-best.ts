/**
 * The best-time proposal's button (best-time-proposal.ts): schedules, or for a reschedule moves, its platforms
 * at the proposed time through the usual path. The value carries the schedule and the request id minted for
 * the button, so a second click sends the same key and the service's answer, or "already scheduled", comes
 * back instead of a second post. The only button of a card answers in its place; one of several leaves the
 * card for the others.
 */

import { userError } from '../../dispatch/context.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { decodeSchedule } from '../../publishing/action-state.js';
import { SCHEDULE_BEST_ACTION } from '../../publishing/best-time-proposal.js';
import { runSchedule } from '../../publishing/schedule-flow.js';

export const scheduleBestAction: ActionSpec = {
  action: SCHEDULE_BEST_ACTION,
  async run(ctx, value) {
    const parts = value.split('|');
    const pending = decodeSchedule(parts);
    if (!pending?.requestId) throw userError('bad-button');
    const flags = parts[4] ?? '';
    const response = await runSchedule(ctx, {
      ...pending,
      ...(flags.includes('m') ? { choice: 'move' } : {}),
    });
    return flags.includes('o') && response.kind === 'message'
      ? { kind: 'update', card: response.card }
      : response;
  },
};
