/**
 * The create form (modal): script (or its file), voice, model with its cost, and language — one Discord modal
 * (five inputs) on every platform. Opened by `create` without a script; its submission leads to the same
 * confirm card as the command, whose "More options" sets the rarely used name, master style and negative
 * prompt (create-options.ts). What the form does not ask (style, music, and those options when typed as
 * flags) rides along in the form state.
 */

import { type CommandContext, UserError } from '../../dispatch/context.js';
import { voiceLabel } from '../../format/video.js';
import type { FormSpec, RawArgs } from '../../parse/command-spec.js';
import { type FormInput, LIMITS, message, type Response, type SelectOption } from '../../text/cards.js';
import { uploadedOr, withUploads } from '../../text/long-text.js';
import { type MessageCode, say } from '../../text/messages.js';
import { md } from '../../text/text.js';
import type { OptionItem, Voice } from '../../video-api/video-api.js';
import {
  defaultVoice,
  loadVoices,
  modelCatalog,
  modelWithCost,
  pickVoice,
  speaks,
} from '../../videos/catalog-choices.js';
import { prepareCreate, SCRIPT_MAX, SCRIPT_MIN } from '../../videos/create-request.js';
import type { CreateOptionValues } from './create-options.js';

export const CREATE_FORM_ID = 'video.create';

/** Typed as flags but not asked by the form: kept until the confirm card (where "More options" shows them). */
interface FormState extends CreateOptionValues {
  style?: string;
  music?: boolean;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** Recommended voices first, then the team's custom voices, then the rest; the language's speakers first. */
function voiceOptions(voices: readonly Voice[], language: string | undefined): SelectOption[] {
  const rank = (v: Voice) =>
    (language && !speaks(v, language) ? 10 : 0) + (v.isRecommended ? 0 : v.isCustom ? 1 : 2);
  return [...voices]
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, LIMITS.selectOptions)
    .map((v) => ({ label: voiceLabel(v).slice(0, LIMITS.buttonLabel), value: v.id }));
}

function tryPick(voices: readonly Voice[], ref: string, language: string | undefined): Voice | undefined {
  try {
    return pickVoice(voices, ref, language);
  } catch {
    return undefined;
  }
}

export async function createForm(
  ctx: CommandContext,
  partial: RawArgs | Record<string, unknown>,
): Promise<Response> {
  const language = str(partial.language);
  const { voices, models, languages } = await loadCatalogs(ctx);
  const script = str(partial.script);
  return {
    kind: 'form',
    form: {
      id: CREATE_FORM_ID,
      title: 'Create a video',
      submitLabel: 'Check cost',
      state: JSON.stringify(formStateOf(partial)),
      intro: md`Nothing is charged yet: next you see the cost and your balance, and confirm. A name, master style and negative prompt are under **More options** there.`,
      // A script longer than a platform's inputs: uploaded as a file, or split by the adapter (long-text.ts).
      inputs: withUploads(
        [
          scriptInput(script),
          voiceInput(voices, {
            language,
            initial: initialVoiceOf(voices, { typed: str(partial.voice), language }),
          }),
          modelInput(models, str(partial.model) ?? 'storyboard'),
          ...languageInput(languages, language),
        ],
        ['script'],
      ),
    },
  };
}

/** The voices, models and languages the form offers; a team without the languages catalog gets no language input. */
async function loadCatalogs(ctx: CommandContext) {
  const api = await ctx.api();
  const [voices, models, languages] = await Promise.all([
    loadVoices(ctx),
    modelCatalog(ctx),
    ctx.deps.catalog
      .options(api, await ctx.apiKeyId(), 'languages')
      .then((c) => c.items)
      .catch(() => []),
  ]);
  return { voices, models, languages };
}

/** A voice typed wrongly is simply not preselected; the user picks from the list. */
function initialVoiceOf(
  voices: readonly Voice[],
  { typed, language }: { typed: string | undefined; language: string | undefined },
): Voice | undefined {
  let initialVoice: Voice | undefined;
  if (typed) initialVoice = tryPick(voices, typed, language) ?? tryPick(voices, typed, undefined);
  initialVoice ??= defaultVoice(voices, language);
  return initialVoice;
}

function formStateOf(partial: RawArgs | Record<string, unknown>): FormState {
  const state: FormState = {};
  if (str(partial.style)) state.style = str(partial.style) as string;
  if (partial.music === true) state.music = true;
  for (const option of ['name', 'master-style', 'negative'] as const) {
    const typed = str(partial[option]);
    if (typed) state[option] = typed;
  }
  return state;
}

function scriptInput(script: string | undefined): FormInput {
  return {
    kind: 'text',
    id: 'script',
    label: 'Script',
    multiline: true,
    required: true,
    minLength: SCRIPT_MIN,
    maxLength: SCRIPT_MAX,
    placeholder: `The finished narration, ${SCRIPT_MIN} to ${SCRIPT_MAX.toLocaleString('en-US')} characters`,
    ...(script ? { initial: script } : {}),
  };
}

function voiceInput(
  voices: readonly Voice[],
  { language, initial }: { language: string | undefined; initial: Voice | undefined },
): FormInput {
  return {
    kind: 'select',
    id: 'voice',
    label: 'Voice',
    placeholder: 'Choose a voice',
    required: true,
    options: voiceOptions(voices, language),
    ...(initial ? { initial: initial.id } : {}),
  };
}

function modelInput(models: readonly OptionItem[], initial: string): FormInput {
  return {
    kind: 'select',
    id: 'model',
    label: 'Model',
    placeholder: 'Choose a model',
    required: true,
    options: models.map((m) => ({ label: modelWithCost(m), value: m.value })),
    initial,
  };
}

/** The language select, preselecting the typed language (by code or name); none without the catalog. */
function languageInput(languages: readonly OptionItem[], language: string | undefined): FormInput[] {
  if (languages.length === 0) return [];
  const languageValue = languages.find(
    (l) =>
      l.value.toLowerCase() === language?.toLowerCase() || l.name.toLowerCase() === language?.toLowerCase(),
  )?.value;
  return [
    {
      kind: 'select',
      id: 'language',
      label: 'Language',
      placeholder: 'The voice’s language',
      options: languages.slice(0, LIMITS.selectOptions).map((l) => ({ label: l.name, value: l.value })),
      ...(languageValue ? { initial: languageValue } : {}),
    },
  ];
}

/** The inputs an error can be shown next to. */
const FORM_FIELDS = ['script', 'voice', 'model', 'language'];

/** Which form input an error belongs to, so it shows inline and the form stays open. */
const ERROR_FIELD: Partial<Record<MessageCode, string>> = {
  'ambiguous-voice': 'voice',
  'not-found-voice': 'voice',
  'voice-wrong-language': 'voice',
  'no-voices': 'voice',
  'model-unavailable': 'model',
  'api.insufficient_credits': 'model',
};

function parseState(state: string): FormState {
  try {
    const parsed = JSON.parse(state) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as FormState) : {};
  } catch {
    return {};
  }
}

export const createFormSpec: FormSpec = {
  id: CREATE_FORM_ID,
  async submit(ctx, stateText, values) {
    const state = parseState(stateText);
    try {
      const card = await prepareCreate(ctx, {
        script: uploadedOr(values, 'script'),
        voice: str(values.voice),
        model: str(values.model),
        language: str(values.language),
        name: str(state.name),
        masterStyle: str(state['master-style']),
        negative: str(state.negative),
        style: state.style,
        music: state.music,
      });
      return message(card);
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      const field =
        error.code === 'too-short' ||
        error.code === 'too-long' ||
        error.code === 'bad-choice' ||
        error.code === 'field-required'
          ? String(error.params.option)
          : ERROR_FIELD[error.code];
      if (field && FORM_FIELDS.includes(field)) {
        return { kind: 'form-errors', errors: { [field]: say(error.code, error.params) } };
      }
      throw error;
    }
  },
};
