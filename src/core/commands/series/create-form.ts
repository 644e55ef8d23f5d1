/**
 * The `series create` form: name, source, niche, voice, style, language, duration, destination and schedule,
 * each catalog value a select of the team's catalog (a text input when the catalog cannot be read or is
 * longer than a select lists). Platforms that show at most five inputs at once (Discord) show it in pages.
 * Flags typed with the command are carried in its state, after the request id minted when it opened
 * (`<request id>|<flags JSON>`): a double or retried submit of this form is one request, and its cost card's
 * Confirm creates one series. Submitting runs the same checks as the text command and answers the same cost
 * card; nothing is created before Confirm.
 */

import { type CommandContext, UserError, userError } from '../../dispatch/context.js';
import { isRequestId, newRequestId } from '../../dispatch/request-id.js';
import type { FormSpec, RawArgs } from '../../parse/command-spec.js';
import { validateArgs } from '../../parse/validate-args.js';
import { platformName } from '../../platforms/names.js';
import { DEFAULT_SERIES_MODEL, episodeCost } from '../../series/series-common.js';
import { DURATIONS, type SeriesFieldArgs } from '../../series/series-field-options.js';
import { seriesFieldsFrom } from '../../series/series-fields.js';
import { priceText } from '../../series/spend-confirm.js';
import { TimeZoneNeeded } from '../../settings/time-zone.js';
import {
  type FormAlert,
  type FormInput,
  LIMITS,
  type Response,
  type SelectOption,
} from '../../text/cards.js';
import { catalogLabel } from '../../text/labels.js';
import { say } from '../../text/messages.js';
import { type CardText, md } from '../../text/text.js';
import { type OptionItem, type OptionKind, PLATFORMS, VideoApiError } from '../../video-api/video-api.js';
import { NAME_MAX } from '../../videos/create-request.js';
import { confirmCreate, createCommand } from './create.js';

export const CREATE_FORM_ID = 'series.create';

/** A series' name, bounded like a video's (the API documents no other). */
const SERIES_NAME_MAX = NAME_MAX;

/** The form's inputs besides name and source, in order: what a submission reads. */
const SETTINGS = ['niche', 'voice', 'style', 'language', 'duration', 'destination', 'schedule'] as const;

/** Which input shows a check's message; anything else fails the whole submission. */
const INPUT_OF: Record<string, string> = {
  name: 'name',
  source: 'source',
  niche: 'niche',
  voice: 'voice',
  style: 'style',
  language: 'language',
  duration: 'duration',
  destination: 'destination',
  schedule: 'schedule',
  time: 'schedule',
  days: 'schedule',
  timezone: 'schedule',
};

/** The catalogs the form offers, each empty when it cannot be read. */
async function catalogs(ctx: CommandContext) {
  const api = await ctx.api();
  const keyId = await ctx.apiKeyId();
  const items = (kind: OptionKind) =>
    ctx.deps.catalog.options(api, keyId, kind).then((c) => c.items, emptyOnApiError);
  const [sources, niches, styles, languages, durations, voices] = await Promise.all([
    items('sources'),
    items('niches'),
    items('styles'),
    items('languages'),
    items('durations'),
    ctx.deps.catalog.voices(api, keyId).then((v) => v, emptyOnApiError),
  ]);
  const voiceOptions: SelectOption[] = [...voices]
    .sort((a, b) => Number(b.isRecommended ?? false) - Number(a.isRecommended ?? false))
    .map((v) => ({
      label: [v.name, v.labels?.language, v.labels?.gender, v.isCustom ? 'custom' : '']
        .filter(Boolean)
        .join(' · '),
      value: v.id,
    }));
  // The lengths a series takes, named as the catalog names them.
  const durationOptions: SelectOption[] = DURATIONS.map((d) => ({
    label: durations.find((i) => i.value === d)?.name ?? `${d} seconds`,
    value: d,
  }));
  return { sources, niches, styles, languages, voiceOptions, durationOptions };
}

/**
 * The schedule input's hint, naming the zone its times are read in. A member whose platform does not share
 * zones and who has none yet still gets the form (asked to name a zone here; asked for theirs on submit when
 * they did not), rather than the zone question before any form.
 */
async function scheduleHint(ctx: CommandContext): Promise<string> {
  try {
    const zone = await ctx.timeZoneToRead();
    return `For example "mon,wed,fri 18:00" or "weekdays 8am". Times are in ${zone} unless you name a zone.`;
  } catch (e) {
    if (!(e instanceof TimeZoneNeeded)) throw e;
    return 'For example "mon,wed,fri 18:00 Europe/Paris" or "weekdays 8am America/New_York".';
  }
}

const optionsOf = (items: readonly OptionItem[]): SelectOption[] =>
  items.map((i) => ({ label: i.name, value: i.value }));

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v : undefined);

/**
 * Opens the form, pre-filled with what was typed. Flags typed alongside are checked first: a bad
 * `--duration` is answered now, not after the user filled in the form.
 */
export async function openCreateForm(ctx: CommandContext, partial: RawArgs): Promise<Response> {
  const { name, source, ...flags } = partial;
  const typed = checkTypedFlags(flags);
  const c = await catalogs(ctx);
  const inputs: FormInput[] = [
    nameInput(str(name)),
    sourceInput(c, str(source)),
    ...catalogInputs(c, flags),
    scheduleInput(str(flags.schedule), await scheduleHint(ctx)),
  ];
  return {
    kind: 'form',
    form: {
      id: CREATE_FORM_ID,
      title: 'New series',
      submitLabel: 'Create series',
      state: Object.keys(typed).length > 0 ? `${newRequestId()}|${JSON.stringify(typed)}` : newRequestId(),
      inputs,
      alert: await chargeAlert(ctx, typeof typed.model === 'string' ? typed.model : DEFAULT_SERIES_MODEL),
      intro: md`Nothing is created yet: next you see the cost and your balance, and confirm.`,
    },
  };
}

/** What every episode costs with the model the series would use (`--model` typed with the command, else the default). */
async function chargeAlert(ctx: CommandContext, model: string): Promise<FormAlert> {
  const [cost, label] = await Promise.all([episodeCost(ctx, model), catalogLabel(ctx, 'models', model)]);
  return {
    level: 'warning',
    text: md`Each episode is charged ${priceText(cost, label)} when it is generated, the first as soon as you create the series.`,
  };
}

/** The flags typed with the command, checked as the text command checks them; what the form state carries. */
function checkTypedFlags(flags: RawArgs) {
  const checked = validateArgs(createCommand, { ...flags, name: 'form', source: 'form' });
  // The dispatcher answers these (all input mistakes) with the command's usage, as for the text command.
  if (!checked.ok) throw checked.error;
  const { name: _n, source: _s, ...typed } = checked.value;
  return typed;
}

type Catalogs = Awaited<ReturnType<typeof catalogs>>;

function nameInput(initial: string | undefined): FormInput {
  return text({
    id: 'name',
    label: 'Series name',
    required: true,
    maxLength: SERIES_NAME_MAX,
    initial,
    placeholder: 'Night Terrors',
  });
}

function sourceInput(c: Catalogs, initial: string | undefined): FormInput {
  return choose({
    id: 'source',
    label: 'Content source',
    required: true,
    options: optionsOf(c.sources),
    initial,
    placeholder: 'ai_story',
    choice: 'Choose a source',
  });
}

/** The optional settings read from a catalog, in form order, each pre-filled with its typed flag. */
function catalogInputs(c: Catalogs, flags: RawArgs): FormInput[] {
  const catalogInput = (
    id: string,
    label: string,
    i: { options: SelectOption[]; placeholder: string; choice: string },
  ) => choose({ id, label, required: false, initial: str(flags[id]), ...i });
  return [
    catalogInput('niche', 'Niche', {
      options: optionsOf(c.niches),
      placeholder: 'scary_stories',
      choice: 'Any niche',
    }),
    catalogInput('voice', 'Voice', {
      options: c.voiceOptions,
      placeholder: 'Aria',
      choice: 'The default voice',
    }),
    catalogInput('style', 'Visual style', {
      options: optionsOf(c.styles),
      placeholder: 'cinematic',
      choice: 'The default style',
    }),
    catalogInput('language', 'Language', {
      options: optionsOf(c.languages),
      placeholder: 'en',
      choice: 'The default language',
    }),
    catalogInput('duration', 'Episode length', {
      options: c.durationOptions,
      placeholder: '60',
      choice: 'The default length',
    }),
    catalogInput('destination', 'Post to', {
      options: PLATFORMS.map((p) => ({ label: platformName(p), value: p })),
      placeholder: 'youtube',
      choice: 'Nowhere: episodes are not posted',
    }),
  ];
}

function scheduleInput(initial: string | undefined, hint: string): FormInput {
  return text({
    id: 'schedule',
    label: 'Schedule',
    required: false,
    initial,
    placeholder: 'daily 09:00 Europe/Paris',
    hint,
  });
}

const emptyOnApiError = (e: unknown): never[] => {
  if (e instanceof VideoApiError) return [];
  throw e;
};

function text(
  i: Omit<Extract<FormInput, { kind: 'text' }>, 'kind' | 'initial'> & { initial?: string | undefined },
) {
  const { initial, ...rest } = i;
  return { kind: 'text', ...rest, ...(initial ? { initial } : {}) } as FormInput;
}

/** A select when the catalog fits one (25 options), else a text input with an example. */
function choose(i: {
  id: string;
  label: string;
  required: boolean;
  options: SelectOption[];
  initial?: string | undefined;
  /** A text input's example value. */
  placeholder: string;
  /** A select's words before anything is chosen. */
  choice: string;
}): FormInput {
  const initial = i.initial && i.options.some((o) => o.value === i.initial) ? i.initial : undefined;
  if (i.options.length > 0 && i.options.length <= LIMITS.selectOptions) {
    return {
      kind: 'select',
      id: i.id,
      label: i.label,
      placeholder: i.choice,
      required: i.required,
      options: i.options,
      ...(initial ? { initial } : {}),
    };
  }
  return text({
    id: i.id,
    label: i.label,
    required: i.required,
    initial: i.initial,
    placeholder: i.placeholder,
  });
}

export const createForm: FormSpec = {
  id: CREATE_FORM_ID,
  async submit(ctx, state, values) {
    const bar = state.indexOf('|');
    const head = bar < 0 ? state : state.slice(0, bar);
    // A form opened before request ids carries only the flags JSON (or nothing).
    const requestId = isRequestId(head) ? head : undefined;
    const json = requestId ? state.slice(head.length + 1) : state;
    let flags: SeriesFieldArgs;
    try {
      flags = json ? (JSON.parse(json) as SeriesFieldArgs) : {};
    } catch {
      throw userError('interaction-expired');
    }
    const value = (id: string) => values[id]?.trim() || undefined;
    const name = value('name');
    const source = value('source');
    const errors: Record<string, CardText> = {};
    if (!name) errors.name = say('field-required', { field: 'series name' });
    else if (name.length > SERIES_NAME_MAX)
      errors.name = say('too-long', { field: 'series name', max: SERIES_NAME_MAX, length: name.length });
    if (!source) errors.source = say('field-required', { field: 'content source' });
    if (!name || !source || errors.name) return { kind: 'form-errors', errors };

    const given: RawArgs = {};
    for (const id of SETTINGS) {
      const v = value(id);
      if (v !== undefined) given[id] = v;
    }
    // Choices (duration, destination) are checked as the text command checks them.
    const checked = validateArgs(createCommand, { ...given, name, source });
    if (!checked.ok) {
      const input = INPUT_OF[String(checked.error.params.option ?? '')];
      if (input)
        return { kind: 'form-errors', errors: { [input]: say(checked.error.code, checked.error.params) } };
      throw checked.error;
    }
    const { name: _n, ...settings } = checked.value;
    const args: SeriesFieldArgs = { ...flags, ...(settings as SeriesFieldArgs), source };
    try {
      const fields = await seriesFieldsFrom(ctx, args, 'create');
      return await confirmCreate(ctx, { ...fields, name, source: fields.source ?? source }, { requestId });
    } catch (e) {
      const input = e instanceof UserError ? INPUT_OF[String(e.params.option ?? '')] : undefined;
      if (e instanceof UserError && input)
        return { kind: 'form-errors', errors: { [input]: say(e.code, e.params) } };
      throw e;
    }
  },
};
