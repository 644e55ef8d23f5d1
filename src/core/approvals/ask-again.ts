/**
 * "Ask again" on the notice of an expired publish request (expire.ts): the same publication asked again as a
 * new approval, its card built from the stored args for the video as it is now (what will be sent), as a
 * content change re-asks it (`publicationApproval`). A schedule is asked again with **Reschedule** instead:
 * its time has passed. A double click finds the request it already made.
 */
import { userError } from '../dispatch/context.js';
import type { ActionSpec } from '../parse/command-spec.js';
import { publicationApproval } from '../publishing/publication.js';
import { getVideo } from '../publishing/schedule-flow.js';
import { message, type Response } from '../text/cards.js';
import { md } from '../text/text.js';
import { ASK_AGAIN_ACTION } from './card.js';
import { approvalModel } from './effects.js';
import { requestApproval } from './request.js';
import { checkRole } from './roles.js';
import { alreadyDecided } from './wording.js';

export const askAgainAction: ActionSpec = {
  action: ASK_AGAIN_ACTION,
  async run(ctx, id): Promise<Response> {
    const store = ctx.deps.store;
    const approval = id ? await store.approvals.get(id) : undefined;
    const videoId = approval?.action.args.videoId;
    if (approval?.action.command !== 'publish' || typeof videoId !== 'string')
      throw userError('interaction-expired');
    if (approval.conversation !== ctx.req.conversation) throw userError('approval-elsewhere');
    await checkRole(ctx, 'publish');
    const model = await approvalModel(store, approval);
    // Only a request that ran out of time: a decided, withdrawn or replaced one says what became of it.
    if (approval.status !== 'expired' || approval.reason || model?.replacedBecause)
      return message({ title: md`Nothing to do`, tone: 'info', text: await alreadyDecided(approval, ctx) });
    const again = publicationApproval(await getVideo(ctx, videoId), approval.action);
    return await requestApproval(ctx, {
      ...again,
      idempotencyKey: await store.idempotency.keyFor(`approval:${approval.id}:ask-again`),
    });
  },
};
