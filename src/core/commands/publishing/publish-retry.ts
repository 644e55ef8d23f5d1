/**
 * **Retry now** on a publish to several platforms: posts the one platform that failed again, with a fresh
 * idempotency key (one per try, the same for a double click of one button), under the clicker's key. An
 * approved set needs no second approval for the same content, as long as its approval still stands; a set
 * sent without one is refused once the channel's policy asks for one.
 */
import { updateApprovalCard } from '../../approvals/effects.js';
import { needsApproval } from '../../approvals/policy.js';
import { checkRole } from '../../approvals/roles.js';
import { type CommandContext, userError } from '../../dispatch/context.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { platformName } from '../../platforms/post-blocks.js';
import { workspaceOf } from '../../ports/address.js';
import { decodePlatforms } from '../../publishing/action-state.js';
import { publishSetSendOf, storedVideoId } from '../../publishing/publication.js';
import {
  PUBLISH_RETRY_ACTION,
  type PublishSetModel,
  publishSetKey,
  publishSetLines,
  readPublishSet,
  renderPublishSet,
  tryPlatform,
} from '../../publishing/publish-set.js';
import { getVideo } from '../../publishing/schedule-flow.js';
import type { Response } from '../../text/cards.js';

/** Whether the click comes from the workspace the set was sent in (a button only acts where it was shown). */
function sameWorkspace(a: string, b: string): boolean {
  try {
    return workspaceOf(a) === workspaceOf(b);
  } catch {
    return false;
  }
}

/** The approval the set went out under must still stand; a set sent without one, the policy must still allow. */
async function checkStillAllowed(
  ctx: CommandContext,
  model: PublishSetModel,
  platform: string,
): Promise<void> {
  const name = model.videoName;
  if (model.approval) {
    const approval = await ctx.deps.store.approvals.get(model.approval.id);
    if (approval?.status !== 'approved')
      throw userError('publish-retry-unapproved', { status: approval?.status ?? 'gone', name, platform });
    return;
  }
  if (await needsApproval(ctx, { kind: 'publish' }))
    throw userError('publish-retry-needs-approval', { name, platform });
}

export const publishRetryAction: ActionSpec = {
  action: PUBLISH_RETRY_ACTION,
  async run(ctx, value): Promise<Response> {
    const [setId, code, attemptText] = value.split('|');
    const platform = decodePlatforms(code ?? '')?.[0];
    const attempt = Number(attemptText);
    const store = ctx.deps.store;
    const record = setId ? await store.cards.get(publishSetKey(setId)) : undefined;
    const model = readPublishSet(record?.model);
    if (!record || !model || !platform || !Number.isInteger(attempt)) throw userError('interaction-expired');
    if (!sameWorkspace(record.conversation, ctx.req.conversation)) throw userError('bad-button');
    await checkRole(ctx, 'publish');
    const result = model.results[platform];
    // Already posted, or retried by someone else since this button was drawn: the card as it is now.
    if (result?.state !== 'failed' || result.attempt !== attempt)
      return { kind: 'update', card: renderPublishSet(model) };
    await checkStillAllowed(ctx, model, platformName(platform));
    const send = publishSetSendOf(await getVideo(ctx, storedVideoId(model.args)), {
      args: model.args,
      idempotencyKey: model.idempotencyKey,
      ...(model.approval ? { approval: model.approval } : {}),
    });
    const target = send.targets.find((t) => t.platform === platform);
    if (!target) throw userError('interaction-expired');
    const tried = await tryPlatform(ctx, { send, target, attempt: attempt + 1 });
    const next = await store.transaction(async () => {
      // Read again: another platform's retry may have landed meanwhile.
      const now = readPublishSet((await store.cards.get(publishSetKey(setId ?? '')))?.model) ?? model;
      const merged: PublishSetModel = { ...now, results: { ...now.results, [platform]: tried } };
      const card = renderPublishSet(merged);
      await store.cards.put(publishSetKey(setId ?? ''), {
        conversation: record.conversation,
        card,
        model: merged as unknown as Record<string, unknown>,
      });
      const approval = model.approval ? await store.approvals.get(model.approval.id) : undefined;
      if (approval) {
        await updateApprovalCard(store, approval, {
          patch: { outcome: { state: 'done', text: publishSetLines(merged) } },
          dedupeKey: `approval:${approval.id}:retry:${code}:${attempt + 1}`,
        });
      }
      return merged;
    });
    return { kind: 'update', card: renderPublishSet(next) };
  },
};
