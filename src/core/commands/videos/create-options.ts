/**
 * "More options" on the create confirm card: the rarely used inputs — the video's name, the master
 * style and the negative prompt — in a small form prefilled with the request's current values, so the create
 * form itself stays one modal on every platform (script, voice, model, language). Its submission answers the
 * same confirm card updated in place: the same request id (its Create still creates once), the same cost.
 * Once the card has acted (Create or Cancel pressed), the button and a form still open say so and change
 * nothing: an approver never approves other options than those asked.
 */

import { type CommandContext, UserError, userError } from '../../dispatch/context.js';
import { answeredAlready, oneShot } from '../../dispatch/one-shot.js';
import type { ActionSpec, FormSpec } from '../../parse/command-spec.js';
import type { Form, FormInput, Response } from '../../text/cards.js';
import { say } from '../../text/messages.js';
import { md } from '../../text/text.js';
import type { CreateVideoInput } from '../../video-api/video-api.js';
import {
  CREATE_OPTIONS_ACTION,
  checkDraft,
  DIRECTIVE_MAX,
  NAME_MAX,
  type PendingCreate,
  REQUEST_TTL_MS,
  savePending,
} from '../../videos/create-request.js';
import { loadRequest, requestCard } from './create-confirm.js';

export const CREATE_OPTIONS_FORM = 'video.create.options';

/** The options a create takes as typed, by input id (command flags and these inputs share names). */
export interface CreateOptionValues {
  name?: string | undefined;
  'master-style'?: string | undefined;
  negative?: string | undefined;
}

const INPUT_IDS = ['name', 'master-style', 'negative'] as const;

/** The name and the two optional scene directives (`--master-style`, `--negative`), prefilled. */
function optionInputs(values: CreateOptionValues): FormInput[] {
  const { name, 'master-style': masterStyle, negative } = values;
  return [
    {
      kind: 'text',
      id: 'name',
      label: 'Name',
      maxLength: NAME_MAX,
      placeholder: 'Default: the start of the script',
      ...(name ? { initial: name } : {}),
    },
    {
      kind: 'text',
      id: 'master-style',
      label: 'Master style',
      multiline: true,
      maxLength: DIRECTIVE_MAX,
      placeholder: 'Optional: grainy 16mm film, warm light',
      hint: 'A style applied to every scene',
      ...(masterStyle ? { initial: masterStyle } : {}),
    },
    {
      kind: 'text',
      id: 'negative',
      label: 'Negative prompt',
      multiline: true,
      maxLength: DIRECTIVE_MAX,
      placeholder: 'Optional: text, logos, blurry faces',
      hint: 'What no scene should show',
      ...(negative ? { initial: negative } : {}),
    },
  ];
}

/** A request still waiting for its Create: one that acted, or is too old to price, is refused. */
async function openRequest(ctx: CommandContext, id: string): Promise<PendingCreate> {
  const pending = await loadRequest(ctx, id);
  if (pending.state !== 'pending') throw userError('interaction-expired');
  if (ctx.now() - pending.createdAt > REQUEST_TTL_MS) {
    throw userError('request-expired', { minutes: REQUEST_TTL_MS / 60_000, command: 'create' });
  }
  return pending;
}

export const createOptionsAction: ActionSpec = oneShot({
  action: CREATE_OPTIONS_ACTION,
  card: requestCard,
  async run(ctx, id): Promise<Response> {
    const { input, cost } = await openRequest(ctx, id);
    const form: Form = {
      id: CREATE_OPTIONS_FORM,
      title: 'More options',
      submitLabel: 'Update',
      state: id,
      intro: md`The cost stays ${cost} credits; you confirm with **Create** on the card.`,
      inputs: optionInputs({
        name: input.name,
        'master-style': input.masterStyle,
        negative: input.globalNegativePrompt,
      }),
    };
    return { kind: 'form', form };
  },
});

const trimmed = (v: string | undefined): string | undefined => (v?.trim() ? v.trim() : undefined);

/** The request's input with the submitted options: an emptied input removes its option. */
function withOptions(input: CreateVideoInput, values: Readonly<Record<string, string>>): CreateVideoInput {
  const { name: _n, masterStyle: _m, globalNegativePrompt: _g, ...rest } = input;
  const name = trimmed(values.name);
  const masterStyle = trimmed(values['master-style']);
  const negative = trimmed(values.negative);
  return {
    ...rest,
    ...(name ? { name } : {}),
    ...(masterStyle ? { masterStyle } : {}),
    ...(negative ? { globalNegativePrompt: negative } : {}),
  };
}

export const createOptionsForm: FormSpec = {
  id: CREATE_OPTIONS_FORM,
  async submit(ctx, id, values): Promise<Response> {
    const card = requestCard(id);
    const answered = card ? await answeredAlready(ctx, card) : undefined;
    if (answered) return answered;
    const pending = await openRequest(ctx, id);
    try {
      checkDraft({
        script: pending.input.script,
        name: values.name,
        masterStyle: values['master-style'],
        negative: values.negative,
      });
    } catch (error) {
      const field = error instanceof UserError ? String(error.params.option) : '';
      if (!(error instanceof UserError) || !(INPUT_IDS as readonly string[]).includes(field)) throw error;
      return { kind: 'form-errors', errors: { [field]: say(error.code, error.params) } };
    }
    const updated: PendingCreate = { ...pending, input: withOptions(pending.input, values) };
    return { kind: 'update', card: await savePending(ctx, id, updated) };
  },
};
