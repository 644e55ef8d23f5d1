/**
 * Neutral forms ↔ Slack modals (https://docs.slack.dev/surfaces/modals). The form id is the view's
 * `callback_id`; `private_metadata` carries the form's opaque state plus where the form was opened (a
 * view_submission payload names no channel), within Slack's 3000 characters.
 */
import type { types } from '@slack/bolt';
import type { FileInput, Form, FormAlert, FormInput } from '../../src/core/index.js';
import { mustBeTyped, splitInput } from '../../src/core/index.js';
import { CLASSIC, type NativeBlock } from './block-support.js';
import type { SlackFile } from './files.js';
import { option, plain } from './render.js';
import { splitMrkdwn, toMrkdwn, toPlain, truncate, truncateMrkdwn } from './text.js';

export const MODAL_LIMITS = {
  title: 24,
  submit: 24,
  callbackId: 255,
  privateMetadata: 3000,
  label: 2000,
  hint: 2000,
  placeholder: 150,
  inputChars: 3000,
  selectOptions: 100,
  /** Not in Slack's reference; the length Block Kit validators hold an alert's text to. */
  alertText: 200,
} as const;

/** Where a modal was opened, so its submission can answer in the right place. */
export interface ModalOrigin {
  /** Channel id (the conversation the command or click came from). */
  channel: string;
  /** The command's or click's `response_url` (valid 30 min), for an ephemeral answer after submit. */
  responseUrl?: string;
  /** The message carrying the clicked control, for an `update` answer. */
  messageTs?: string;
  /**
   * The private (ephemeral) message carrying the clicked control: an `update` answer replaces it through
   * `responseUrl` (chat.update cannot reach it), as the cost card's "More options" does.
   */
  ephemeralTs?: string;
}

interface Metadata {
  /** The form's state. */
  s: string;
  c: string;
  r?: string;
  m?: string;
  /** The ephemeral message's ts (`ModalOrigin.ephemeralTs`). */
  e?: string;
  /** The form's file inputs: id → [most characters, accepted extensions] (a submission names neither). */
  f?: Record<string, [number, string]>;
}

/** A form's file inputs as the metadata keeps them. */
export type FileLimits = Record<string, { maxLength: number; accept: string[] }>;

function fileLimitsOf(inputs: readonly FormInput[]): Metadata['f'] {
  const files = inputs.filter((i): i is FileInput => i.kind === 'file');
  if (files.length === 0) return undefined;
  return Object.fromEntries(files.map((f) => [f.id, [f.maxLength, f.accept.join(',')]]));
}

export function encodeMetadata(
  state: string,
  origin: ModalOrigin,
  inputs: readonly FormInput[] = [],
): string {
  const f = fileLimitsOf(inputs);
  const full: Metadata = {
    s: state,
    c: origin.channel,
    ...(origin.responseUrl ? { r: origin.responseUrl } : {}),
    ...(origin.messageTs ? { m: origin.messageTs } : {}),
    ...(origin.ephemeralTs ? { e: origin.ephemeralTs } : {}),
    ...(f ? { f } : {}),
  };
  const json = JSON.stringify(full);
  if (json.length <= MODAL_LIMITS.privateMetadata) return json;
  // The form's state is what the submission cannot do without: the response URL is only a convenience.
  return JSON.stringify({ s: state, c: origin.channel, ...(f ? { f } : {}) });
}

export function decodeMetadata(
  raw: string | undefined,
): { state: string; origin: ModalOrigin; files?: FileLimits } | undefined {
  if (!raw) return undefined;
  try {
    const m = JSON.parse(raw) as Partial<Metadata>;
    if (typeof m.s !== 'string' || typeof m.c !== 'string') return undefined;
    const files: FileLimits = {};
    for (const [id, limit] of Object.entries(m.f ?? {}))
      if (Array.isArray(limit))
        files[id] = { maxLength: Number(limit[0]), accept: String(limit[1]).split(',') };
    return {
      ...(Object.keys(files).length > 0 ? { files } : {}),
      state: m.s,
      origin: {
        channel: m.c,
        ...(typeof m.r === 'string' ? { responseUrl: m.r } : {}),
        ...(typeof m.m === 'string' ? { messageTs: m.m } : {}),
        ...(typeof m.e === 'string' ? { ephemeralTs: m.e } : {}),
      },
    };
  } catch {
    return undefined;
  }
}

/** How a modal is drawn: its cancel button's label, and which of Slack's newest blocks it may hold. */
export interface ViewOptions {
  cancel: string;
  /** Without `alert` (the default), a form's alert is a section of its own. */
  native?: ReadonlySet<NativeBlock>;
}

/** The modal view for a form. Labels and titles are cut to Slack's limits, values never invented. */
export function formToView(form: Form, origin: ModalOrigin, options: ViewOptions): types.ModalView {
  const blocks: types.KnownBlock[] = [];
  if (form.alert) blocks.push(alertBlock(form.alert, options.native ?? CLASSIC));
  if (form.intro) {
    for (const piece of splitMrkdwn(toMrkdwn(form.intro), 3000)) {
      blocks.push({ type: 'section', text: { type: 'mrkdwn', text: piece } });
    }
  }
  // A text longer than Slack's inputs take is split into parts, joined in order on submission (long-text.ts).
  // An input an upload may stand in for is not insisted on: Slack then marks it "(optional)" itself, the one
  // way it has to let a form go with either filled in.
  for (const input of form.inputs) {
    const asked = { ...input, required: mustBeTyped(form.inputs, input) };
    for (const part of asked.kind === 'text' ? splitInput(asked, MODAL_LIMITS.inputChars) : [asked])
      blocks.push(inputBlock(part));
  }
  return {
    type: 'modal',
    callback_id: form.id.slice(0, MODAL_LIMITS.callbackId),
    title: plain(form.title, MODAL_LIMITS.title),
    submit: plain(form.submitLabel, MODAL_LIMITS.submit),
    close: plain(options.cancel, MODAL_LIMITS.submit),
    private_metadata: encodeMetadata(form.state, origin, form.inputs),
    blocks,
  };
}

/** Slack's alert levels by the core's; Slack also has `default` and `success`, which forms do not warn with. */
const ALERT_LEVELS = { info: 'info', warning: 'warning', error: 'error' } as const;

/**
 * The form's alert as Slack's alert block (modals only), or where the workspace refused it, or its text is
 * longer than an alert holds, as a section led by the level's sign.
 */
function alertBlock(alert: FormAlert, native: ReadonlySet<NativeBlock>): types.KnownBlock {
  const text = toMrkdwn(alert.text);
  if (native.has('alert') && text.length <= MODAL_LIMITS.alertText)
    return { type: 'alert', level: ALERT_LEVELS[alert.level], text: { type: 'mrkdwn', text } };
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: truncateMrkdwn(`${ALERT_SIGNS[alert.level]} ${text}`, 3000) },
  };
}

/** The signs the cards' tones use (render.ts), for an alert drawn as a section. */
const ALERT_SIGNS = { info: ':information_source:', warning: ':warning:', error: ':x:' } as const;

function inputBlock(input: FormInput): types.InputBlock {
  const common = {
    type: 'input' as const,
    block_id: input.id,
    label: plain(input.label, MODAL_LIMITS.label),
    optional: !input.required,
    ...(input.hint ? { hint: plain(input.hint, MODAL_LIMITS.hint) } : {}),
  };
  if (input.kind === 'file') {
    // One file; Slack's `filetypes` is a convenience only: the download is checked again (files.ts).
    return {
      ...common,
      element: { type: 'file_input', action_id: input.id, filetypes: [...input.accept], max_files: 1 },
    };
  }
  if (input.kind === 'select' && input.options.length > 0) {
    const options = input.options
      .slice(0, MODAL_LIMITS.selectOptions)
      .map((o) => option(o.label, o.value, o.description));
    if (input.multiple) {
      const chosen = new Set((input.initial ?? '').split(','));
      const initial = options.filter((o) => chosen.has(o.value ?? ''));
      return {
        ...common,
        element: {
          type: 'multi_static_select',
          action_id: input.id,
          placeholder: plain(input.placeholder, MODAL_LIMITS.placeholder),
          options,
          ...(initial.length > 0 ? { initial_options: initial } : {}),
        },
      };
    }
    const initial = options.find((o) => o.value === input.initial);
    return {
      ...common,
      element: {
        type: 'static_select',
        action_id: input.id,
        placeholder: plain(input.placeholder, MODAL_LIMITS.placeholder),
        options,
        ...(initial ? { initial_option: initial } : {}),
      },
    };
  }
  const text = input.kind === 'text' ? input : undefined;
  // Slack caps text inputs at 3000 characters; a larger core limit is checked by the core on submit.
  const max = Math.min(text?.maxLength ?? MODAL_LIMITS.inputChars, MODAL_LIMITS.inputChars);
  const min = text?.minLength !== undefined ? Math.min(text.minLength, max) : undefined;
  const initial = input.initial !== undefined ? truncate(input.initial, max) : undefined;
  return {
    ...common,
    element: {
      type: 'plain_text_input',
      action_id: input.id,
      multiline: text?.multiline ?? false,
      max_length: max,
      ...(min !== undefined && min > 0 ? { min_length: min } : {}),
      ...(text?.placeholder ? { placeholder: plain(text.placeholder, MODAL_LIMITS.placeholder) } : {}),
      ...(initial ? { initial_value: initial } : {}),
    },
  };
}

/** A submitted modal's values by input id (block id = action id = input id); empty inputs are ''. */
export function viewValues(
  values: Record<
    string,
    Record<
      string,
      {
        value?: string | null;
        selected_option?: { value?: string } | null;
        selected_options?: { value?: string }[] | null;
      }
    >
  >,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [blockId, actions] of Object.entries(values)) {
    const action = actions[blockId] ?? Object.values(actions)[0];
    if (!action) continue;
    // A multi-select's choices, comma-separated, as the core's `multiple` select reads them.
    const several = action.selected_options?.map((o) => o.value ?? '').filter((v) => v !== '');
    out[blockId] = several ? several.join(',') : (action.selected_option?.value ?? action.value ?? '');
  }
  return out;
}

/** The files each `file_input` of a submitted modal carries, by input id (an input left empty is absent). */
export function viewFiles(
  values: Record<string, Record<string, { type?: string; files?: SlackFile[] | null }>>,
): Record<string, SlackFile> {
  const out: Record<string, SlackFile> = {};
  for (const [blockId, actions] of Object.entries(values)) {
    const action = actions[blockId] ?? Object.values(actions)[0];
    const file = action?.type === 'file_input' ? action.files?.[0] : undefined;
    if (file) out[blockId] = file;
  }
  return out;
}

/** Inline errors by block id: only ids the view has (Slack rejects unknown ones), messages cut to fit. */
export function inlineErrors(form: { blocks: { block_id?: string }[] }, errors: Record<string, string>) {
  const known = form.blocks.map((b) => b.block_id).filter((id): id is string => !!id);
  const out: Record<string, string> = {};
  const orphans: string[] = [];
  for (const [id, message] of Object.entries(errors)) {
    const text = truncate(toPlain(message), 2000);
    if (known.includes(id)) out[id] = text;
    else orphans.push(text);
  }
  // An error about the form as a whole still has to show: on the first input.
  const first = known[0];
  if (orphans.length > 0 && first)
    out[first] = truncate([out[first], ...orphans].filter(Boolean).join(' '), 2000);
  return out;
}
