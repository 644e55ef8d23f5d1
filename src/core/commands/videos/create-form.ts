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
import { LIMITS, message, type Response, type SelectOption } from '../../text/cards.js';
import { uploadedOr, withUploads } from '../../text/long-text.js';
import { type MessageCode, say } from '../../text/messages.js';
import { md } from '../../text/text.js';
import type { Voice } from '../../video-api/video-api.js';
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
  const api = await ctx.api();
  const language = str(partial.language);
  const [voices, models, languages] = await Promise.all([
    loadVoices(ctx),
    modelCatalog(ctx),
    ctx.deps.catalog
      .options(api, await ctx.apiKeyId(), 'languages')
      .then((c) => c.items)
      .catch(() => []),
  ]);
  const typedVoice = str(partial.voice);
  // A voice typed wrongly is simply not preselected; the user picks from the list.
  let initialVoice: Voice | undefined;
  if (typedVoice)
    initialVoice = tryPick(voices, typedVoice, language) ?? tryPick(voices, typedVoice, undefined);
  initialVoice ??= defaultVoice(voices, language);
  const state: FormState = {};
  if (str(partial.style)) state.style = str(partial.style) as string;
  if (partial.music === true) state.music = true;
  for (const option of ['name', 'master-style', 'negative'] as const) {
    const typed = str(partial[option]);
    if (typed) state[option] = typed;
  }

  const script = str(partial.script);
  const model = str(partial.model) ?? 'storyboard';
  const languageValue = languages.find(
    (l) =>
      l.value.toLowerCase() === language?.toLowerCase() || l.name.toLowerCase() === language?.toLowerCase(),
  )?.value;
  return {
    kind: 'form',
    form: {
      id: CREATE_FORM_ID,
      title: 'Create a video',
      submitLabel: 'Check cost',
      state: JSON.stringify(state),
      intro: md`Nothing is charged yet: next you see the cost and your balance, and confirm. A name, master style and negative prompt are under **More options** there.`,
      // A script longer than a platform's inputs: uploaded as a file, or split by the adapter (long-text.ts).
      inputs: withUploads(
        [
          {
            kind: 'text',
            id: 'script',
            label: 'Script',
            multiline: true,
            required: true,
            minLength: SCRIPT_MIN,
            maxLength: SCRIPT_MAX,
            placeholder: `The finished narration, ${SCRIPT_MIN} to ${SCRIPT_MAX.toLocaleString('en-US')} characters`,
            ...(script ? { initial: script } : {}),
          },
          {
            kind: 'select',
            id: 'voice',
            label: 'Voice',
            placeholder: 'Choose a voice',
            required: true,
            options: voiceOptions(voices, language),
            ...(initialVoice ? { initial: initialVoice.id } : {}),
          },
          {
            kind: 'select',
            id: 'model',
            label: 'Model',
            placeholder: 'Choose a model',
            required: true,
            options: models.map((m) => ({ label: modelWithCost(m), value: m.value })),
            initial: model,
          },
          ...(languages.length > 0
            ? [
                {
                  kind: 'select' as const,
                  id: 'language',
                  label: 'Language',
                  placeholder: 'The voice’s language',
                  options: languages
                    .slice(0, LIMITS.selectOptions)
                    .map((l) => ({ label: l.name, value: l.value })),
                  ...(languageValue ? { initial: languageValue } : {}),
                },
              ]
            : []),
        ],
        ['script'],
      ),
    },
  };
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
