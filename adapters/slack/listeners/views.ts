/**
 * Modal submissions (`view_submission`). The acknowledgement must carry the inline errors, so the core is
 * awaited up to a budget counted from receipt (the member lookups included); a slower core gets the modal
 * closed and answers afterwards.
 */
import type { AllMiddlewareArgs, App, SlackViewMiddlewareArgs, ViewSubmitAction, webApi } from '@slack/bolt';
import type { CardText, Response } from '../../../src/core/index.js';
import { joinParts, SCRIPT_MAX, say, TEXT_FILE_TYPES, UserError, within } from '../../../src/core/index.js';
import { readSlackFile, type SlackFile } from '../files.js';
import { requestInfo } from '../inbound.js';
import {
  decodeMetadata,
  type FileLimits,
  formToView,
  inlineErrors,
  viewFiles,
  viewValues,
} from '../modal.js';
import { type Surface, TRIGGER_BUDGET_MS } from '../present.js';
import type { ListenerContext } from './context.js';
import { show } from './show.js';

/**
 * Time after receipt a view submission may spend (looking up who submitted, then in the core) before the
 * modal is closed without inline errors.
 */
export const VIEW_ACK_BUDGET_MS = TRIGGER_BUDGET_MS;

type ViewSubmissionArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/**
 * The text of each uploaded file, read with the bot token and checked against its input's limits, or the
 * inline errors (on each refused input) when any is refused: then nothing goes to the core.
 */
async function readUploads(
  files: Record<string, SlackFile>,
  access: { limits: FileLimits; client: webApi.WebClient; token: string | undefined },
): Promise<{ values: Record<string, string> } | { errors: Response }> {
  const values: Record<string, string> = {};
  const errors: Record<string, CardText> = {};
  for (const [id, file] of Object.entries(files)) {
    const check = access.limits[id] ?? { accept: TEXT_FILE_TYPES, maxLength: SCRIPT_MAX };
    try {
      values[id] = (await readSlackFile(file, access, check)).text;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      errors[id] = say(error.code, error.params);
    }
  }
  if (Object.keys(errors).length > 0) return { errors: { kind: 'form-errors', errors } };
  return { values };
}

export function registerViews(app: App, ctx: ListenerContext): void {
  app.view<ViewSubmitAction>({ type: 'view_submission' }, (args) => onViewSubmission(ctx, args));
}

async function onViewSubmission(ctx: ListenerContext, args: ViewSubmissionArgs): Promise<void> {
  const { ack, body, view, client, context } = args;
  const receivedAt = ctx.clock.now();
  const meta = decodeMetadata(view.private_metadata);
  const team = context.teamId ?? body.team?.id ?? body.user.team_id ?? '';
  if (!meta) {
    await ack();
    return;
  }
  const { origin } = meta;
  const surface: Surface = {
    client,
    ...(team ? { team: team } : {}),
    user: body.user.id,
    channel: origin.channel,
    ...(origin.responseUrl ? { responseUrl: origin.responseUrl } : {}),
    ...(origin.messageTs ? { message: { ts: origin.messageTs, ephemeral: false } } : {}),
    ...(origin.ephemeralTs ? { message: { ts: origin.ephemeralTs, ephemeral: true } } : {}),
  };
  // The lookups (cached, but a cold cache costs Web API calls) race the budget together with the core.
  const work = requestInfo(ctx, client, {
    team,
    user: body.user.id,
    channel: origin.channel,
    userName: body.user.name,
    userTeam: body.user.team_id,
    ...(origin.messageTs ? { messageTs: origin.messageTs } : {}),
  }).then(async (req) => {
    // Uploaded files become their inputs' text, split inputs are joined; a refused file answers on its input.
    const uploads = await readUploads(viewFiles(view.state.values as never), {
      limits: meta.files ?? {},
      client,
      token: context.botToken,
    });
    if ('errors' in uploads) return uploads.errors;
    return ctx.bot.handleForm(req, {
      formId: view.callback_id,
      state: meta.state,
      values: joinParts({ ...viewValues(view.state.values as never), ...uploads.values }),
    });
  });
  const early = await within(ctx.clock, VIEW_ACK_BUDGET_MS - (ctx.clock.now() - receivedAt), work);
  if (early === undefined) {
    // The core is slow: close the modal now (Slack would show an error) and answer when it is done.
    await ack();
    return show(ctx, { response: await work, surface, what: 'form' });
  }
  if (early.kind === 'form-errors') {
    await ack({ response_action: 'errors', errors: inlineErrors(view, early.errors) });
    return;
  }
  if (early.kind === 'form') {
    // Classic blocks only: a refused acknowledgement cannot be sent again simpler (an alert is a section).
    await ack({
      response_action: 'update',
      view: formToView(early.form, origin, { cancel: say('form-cancel') }),
    });
    return;
  }
  await ack();
  await show(ctx, { response: early, surface, what: 'form' });
}
