/**
 * "Reschedule" on a schedule's approval card (pending or expired): a form for a new time, read in the
 * clicker's zone. The new time goes through the same flow as `schedule`, so it needs approval again (a new
 * card); the old request is then marked replaced, and a pending one can no longer be approved.
 */

import { type CommandContext, userError } from '../dispatch/context.js';
import { isRequestId, newRequestId } from '../dispatch/request-id.js';
import type { ActionSpec, FormSpec } from '../parse/command-spec.js';
import type { Approval } from '../ports/index.js';
import { runSchedule } from '../publishing/schedule-flow.js';
import { type Form, message, type Response } from '../text/cards.js';
import { say } from '../text/messages.js';
import { command, md, storedText } from '../text/text.js';
import { parseWhen } from '../time/parse.js';
import { PLATFORMS, type Platform } from '../video-api/video-api.js';
import { RESCHEDULE_ACTION } from './card.js';
import { approvalModel, auditApproval, closeExpiryWatch, updateApprovalCard } from './effects.js';
import { checkRole } from './roles.js';
import { alreadyDecided } from './wording.js';

const RESCHEDULE_FORM = 'approval.reschedule.form';

/** A schedule approval of this conversation that can still be moved; a refusal (thrown) otherwise. */
async function loadReschedulable(ctx: CommandContext, id: string): Promise<Approval> {
  const approval = id ? await ctx.deps.store.approvals.get(id) : undefined;
  if (approval?.action.command !== 'schedule') throw userError('interaction-expired');
  if (approval.conversation !== ctx.req.conversation) throw userError('approval-elsewhere');
  await checkRole(ctx, 'publish');
  return approval;
}

/** Pending, or expired by time (not already replaced). */
const movable = async (ctx: CommandContext, a: Approval): Promise<boolean> =>
  a.status === 'pending' ||
  (a.status === 'expired' &&
    a.reason !== 'withdrawn' &&
    (await approvalModel(ctx.deps.store, a))?.rescheduledTo === undefined);

export const rescheduleAction: ActionSpec = {
  action: RESCHEDULE_ACTION,
  async run(ctx, id) {
    const approval = await loadReschedulable(ctx, id);
    if (!(await movable(ctx, approval)))
      return message({ title: md`Nothing to do`, tone: 'info', text: await alreadyDecided(approval, ctx) });
    const zone = await ctx.timeZoneToRead();
    const form: Form = {
      id: RESCHEDULE_FORM,
      title: 'Reschedule',
      submitLabel: 'Ask for approval',
      // `<approval id>|<request id>`: a double or retried submit of this form asks (and schedules) once.
      state: `${approval.id}|${newRequestId()}`,
      intro: md`A new time for **${storedText(approval.action.summary)}**.`,
      alert: {
        level: 'warning',
        text: md`The new time needs approval again: this request is replaced by the new one.`,
      },
      inputs: [
        {
          kind: 'text',
          id: 'when',
          label: 'When',
          required: true,
          placeholder: 'tomorrow 9am',
          hint: `In your time zone, ${zone} (change it with ${command('tz')}). E.g. "friday 18:00", "2026-12-01 18:00".`,
        },
      ],
    };
    return { kind: 'form', form };
  },
};

export const rescheduleForm: FormSpec = {
  id: RESCHEDULE_FORM,
  async submit(ctx, state, values): Promise<Response> {
    const [approvalId = '', requestId] = state.split('|');
    const approval = await loadReschedulable(ctx, approvalId);
    if (!(await movable(ctx, approval)))
      return message({ title: md`Nothing to do`, tone: 'info', text: await alreadyDecided(approval, ctx) });
    const when = parseWhen(values.when ?? '', await ctx.timeZoneToRead(), ctx.now());
    if (!when.ok) return { kind: 'form-errors', errors: { when: say(when.error.code, when.error.params) } };
    const a = approval.action.args;
    const platforms = Array.isArray(a.platforms)
      ? a.platforms.filter((p): p is Platform => (PLATFORMS as readonly unknown[]).includes(p))
      : [];
    if (typeof a.videoId !== 'string' || platforms.length === 0) throw userError('approval-malformed');
    const at = Math.floor(when.value / 1000) * 1000;

    // The request already answered what to do with posts pending there: a Move stays a Move. A clash or
    // daily-cap warning is not asked here: its buttons could not carry this request, which would then stay
    // pending beside the new one (two schedules of one video waiting for approval).
    const response = await runSchedule(ctx, {
      videoId: a.videoId,
      platforms,
      at,
      confirmed: true,
      choice: a.move === true ? 'move' : 'keep',
      ...(isRequestId(requestId) ? { requestId } : {}),
    });
    // A form means post details went missing meanwhile: nothing new was asked yet, the old request stays.
    if (response.kind !== 'message') return response;

    const store = ctx.deps.store;
    const now = ctx.now();
    await store.transaction(async () => {
      const fresh = await store.approvals.get(approval.id);
      if (fresh?.status === 'pending') {
        await store.approvals.decide(approval.id, {
          status: 'expired',
          by: ctx.req.user,
          at: now,
          reason: 'rescheduled',
        });
        await closeExpiryWatch(store, approval.id);
      } else if (fresh?.status !== 'expired') return;
      await updateApprovalCard(store, approval, {
        patch: {
          status: 'expired',
          rescheduledTo: at,
          decidedByName: ctx.req.userName ?? 'a member',
          decidedAt: now,
        },
        dedupeKey: `approval:${approval.id}:rescheduled`,
      });
      await auditApproval(store, approval, {
        at: now,
        actor: ctx.req.user,
        action: 'approval.reschedule',
        details: { scheduledTime: new Date(at).toISOString() },
      });
    });
    return response;
  },
};
