/**
 * The core's forms as Discord modals (title ≤45, at most five components): each input in a Label (its hint as
 * the label's description), text inputs as text inputs, selects as string selects (a select with more options
 * than Discord lists becomes a text input naming them), file inputs as file uploads, the intro as a text
 * display when there is room. A form with more inputs than a modal holds is shown in pages of five: each
 * page's submission is kept (memory.ts) and answered with a "Step 1 of 2 done" message whose Continue button
 * opens the next page; the last page's submission hands the core every value at once.
 * Discord has no inline errors and cannot open a modal after a deferral: both cases get a message with a
 * button that opens the form (prefilled after errors, at the page of the first input in error).
 */
import {
  type APIAllowedMentions,
  type APIEmbed,
  type APIModalInteractionResponseCallbackData,
  ButtonStyle,
  ComponentType,
  TextInputStyle,
} from 'discord.js';
import type { Form, FormInput } from '../../src/core/index.js';
import { literal, mustBeTyped } from '../../src/core/index.js';
import type { ActionRow } from './components/controls.js';
import { type RenderMemory, TONE_COLORS } from './components.js';
import { modalId, openFormId, pageModalId } from './custom-id.js';
import { clip, DISCORD } from './limits.js';
import { NO_PINGS, toDiscord } from './text.js';

type ModalComponent = APIModalInteractionResponseCallbackData['components'][number];

/** A launcher or step message: an embed and its button (the message shape from before Components V2). */
export interface LauncherPayload {
  content?: string;
  embeds: APIEmbed[];
  components: ActionRow[];
  allowed_mentions: APIAllowedMentions;
}

/** Where a modal stands: the memory key of its form and, for a form in pages, the page shown (from 0). */
export interface FormPlace {
  key: string;
  page?: number;
  /** How many pages the modal showed it in (known from its custom id once submitted). */
  pages?: number;
}

/** The form's inputs in modal-sized pages, in the core's order: one page for five inputs or fewer. */
export function pagesOf(form: Form): FormInput[][] {
  const pages: FormInput[][] = [];
  for (let at = 0; at < form.inputs.length; at += DISCORD.modalComponents)
    pages.push(form.inputs.slice(at, at + DISCORD.modalComponents));
  return pages.length > 0 ? pages : [[]];
}

/** The page holding the first input `ids` names (0 when none does). */
export function pageOfInputs(form: Form, ids: readonly string[]): number {
  const pages = pagesOf(form);
  const found = pages.findIndex((page) => page.some((input) => ids.includes(input.id)));
  return Math.max(0, found);
}

export function renderModal(
  form: Form,
  place: string | FormPlace,
  memory: RenderMemory,
): APIModalInteractionResponseCallbackData {
  const { key, page = 0 } = typeof place === 'string' ? { key: place } : place;
  const pages = pagesOf(form);
  const at = Math.min(Math.max(0, page), pages.length - 1);
  const inputs = pages[at] ?? [];
  const components: ModalComponent[] = [];
  // The alert and the intro go on the first page with room: a text display each, or one when one fits.
  const notes = notesOf(form);
  const notesPage = pages.findIndex((p) => p.length < DISCORD.modalComponents);
  if (notes.length > 0 && notesPage === at) {
    const room = DISCORD.modalComponents - inputs.length;
    for (const content of room >= notes.length ? notes : [notes.join('\n\n')])
      components.push({ type: ComponentType.TextDisplay, content: clip(content, DISCORD.textDisplay) });
  }
  for (const input of inputs)
    components.push(labelOf({ ...input, required: mustBeTyped(form.inputs, input) }, memory));
  const title = clip(form.title, DISCORD.modalTitle) || form.id.slice(0, DISCORD.modalTitle);
  if (pages.length === 1) return { custom_id: modalId(key, form.id, form.state), title, components };
  const step = ` (${at + 1}/${pages.length})`;
  return {
    custom_id: pageModalId(key, { page: at, pages: pages.length }),
    title: `${clip(form.title, DISCORD.modalTitle - step.length) || form.id.slice(0, 20)}${step}`,
    components,
  };
}

/** Discord has no alert component: an alert is a quote led by its level's sign, set apart from the intro. */
const ALERT_SIGNS = { info: 'ℹ️', warning: '⚠️', error: '⛔' } as const;

/** What a form says above its inputs, in Discord markdown: its alert first, then its intro. */
function notesOf(form: Form): string[] {
  const alert = form.alert?.text.trim();
  const intro = form.intro?.trim();
  return [
    ...(alert && form.alert
      ? [`${ALERT_SIGNS[form.alert.level]} ${toDiscord(alert)}`.replace(/^/gm, '> ')]
      : []),
    ...(intro ? [toDiscord(intro)] : []),
  ];
}

/** A multi-select: any number of its options, at least one when required. */
const pickSome = (input: { id: string; required?: boolean | undefined; options: unknown[] }) => ({
  custom_id: input.id,
  required: input.required === true,
  min_values: input.required ? 1 : 0,
  max_values: Math.max(1, input.options.length),
});

/** A file upload's or select's choice of one (none allowed when the input is optional). */
const pickOne = (input: { id: string; required?: boolean | undefined }) => ({
  custom_id: input.id,
  required: input.required === true,
  min_values: input.required ? 1 : 0,
  max_values: 1,
});

function labelOf(input: FormInput, memory: RenderMemory): ModalComponent {
  const label = {
    type: ComponentType.Label as const,
    label: clip(input.label, DISCORD.labelText),
    ...(input.hint ? { description: clip(input.hint, DISCORD.labelDescription) } : {}),
  };
  if (input.kind === 'file') {
    return {
      ...label,
      component: { type: ComponentType.FileUpload, ...pickOne(input) },
    };
  }
  if (input.kind === 'select' && input.options.length <= DISCORD.selectOptions) {
    const chosen = new Set(input.multiple ? (input.initial ?? '').split(',') : [input.initial]);
    return {
      ...label,
      component: {
        type: ComponentType.StringSelect,
        ...(input.multiple ? pickSome(input) : pickOne(input)),
        placeholder: clip(input.placeholder, DISCORD.selectPlaceholder),
        options: input.options.map((o) => ({
          label: clip(o.label, DISCORD.selectOptionLabel),
          value: o.value.length <= DISCORD.selectOptionValue ? o.value : memory.keepValue(o.value),
          ...(o.description ? { description: clip(o.description, DISCORD.selectOptionDescription) } : {}),
          ...(chosen.has(o.value) ? { default: true } : {}),
        })),
      },
    };
  }
  if (input.kind === 'select') {
    const initial = input.options.find((o) => o.value === input.initial);
    return {
      ...label,
      component: {
        type: ComponentType.TextInput,
        custom_id: input.id,
        style: TextInputStyle.Short,
        required: input.required === true,
        placeholder: clip(input.options.map((o) => o.label).join(', '), DISCORD.textInputPlaceholder),
        ...(initial ? { value: clip(initial.label, DISCORD.textInputValue) } : {}),
      },
    };
  }
  return {
    ...label,
    component: {
      type: ComponentType.TextInput,
      custom_id: input.id,
      style: input.multiline ? TextInputStyle.Paragraph : TextInputStyle.Short,
      required: input.required === true,
      ...(input.placeholder ? { placeholder: clip(input.placeholder, DISCORD.textInputPlaceholder) } : {}),
      ...(input.initial ? { value: clip(input.initial, DISCORD.textInputValue) } : {}),
      ...(input.minLength !== undefined
        ? { min_length: Math.min(input.minLength, DISCORD.textInputValue) }
        : {}),
      ...(input.maxLength !== undefined
        ? { max_length: Math.min(input.maxLength, DISCORD.textInputValue) }
        : {}),
    },
  };
}

/** What a modal submission carries per component: a text input's value or a select's values. */
export type SubmittedFields = Record<string, { value?: string; values?: string[] }>;

/**
 * The core's `values` from a submission: selects give their option value; a select shown as a text input is
 * matched back to an option by label or value (anything else goes to the core as typed, which says what is
 * wrong). `restore` turns stand-ins for long values back.
 */
export function readSubmission(
  form: Form | undefined,
  fields: SubmittedFields,
  restore: (value: string) => string,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [id, field] of Object.entries(fields)) {
    const raw = field.values ? (field.values[0] ?? '') : (field.value ?? '');
    const input = form?.inputs.find((i) => i.id === id);
    if (input?.kind === 'select' && input.multiple && field.values) {
      // A multi-select's choices, comma-separated, as the core reads them.
      values[id] = field.values.map(restore).join(',');
    } else if (input?.kind === 'select' && !field.values) {
      const typed = raw.trim().toLowerCase();
      const option = input.options.find(
        (o) => o.value.toLowerCase() === typed || o.label.toLowerCase() === typed,
      );
      values[id] = option ? option.value : raw;
    } else {
      values[id] = restore(raw);
    }
  }
  return values;
}

/** Every value a submission carries (a stand-in for a long option value among them, see memory.ts). */
export const submittedValues = (fields: SubmittedFields): string[] =>
  Object.values(fields).flatMap((field) => field.values ?? [field.value ?? '']);

/** The form with the submitted values as its initial ones, so "fix it" reopens it filled in. */
export function prefilled(form: Form, values: Record<string, string>): Form {
  return {
    ...form,
    inputs: form.inputs.map((input) =>
      // A secret is typed again: the form (with its values) waits in the store until the member reopens it.
      values[input.id] !== undefined &&
      values[input.id] !== '' &&
      input.kind !== 'file' &&
      !(input.kind === 'text' && input.secret)
        ? { ...input, initial: values[input.id] as string }
        : input,
    ),
  };
}

/**
 * The values of the inputs on pages the member was not shown this time (a form reopened at a later page after
 * errors): their initial values, which hold what was submitted before.
 */
export function initialValues(form: Form): Record<string, string> {
  const values: Record<string, string> = {};
  for (const input of form.inputs)
    if (input.kind !== 'file' && input.initial !== undefined) values[input.id] = input.initial;
  return values;
}

/**
 * A message whose button opens the form: after a deferral (a modal must be the first response) and after a
 * submission with errors (listed, by input label; the button opens the page of the first one).
 */
export function formLauncher(form: Form, key: string, errors?: Record<string, string>): LauncherPayload {
  const embed: APIEmbed = {
    title: clip(toDiscord(literal(form.title)), DISCORD.embedTitle),
    color: errors ? TONE_COLORS.danger : TONE_COLORS.info,
  };
  if (errors) {
    const label = (id: string) => form.inputs.find((i) => i.id === id)?.label ?? id;
    embed.description = clip(
      Object.entries(errors)
        .map(([id, text]) => `**${toDiscord(literal(label(id)))}**: ${toDiscord(text)}`)
        .join('\n'),
      DISCORD.embedDescription,
    );
  } else if (notesOf(form).length > 0) {
    embed.description = clip(notesOf(form).join('\n\n'), DISCORD.embedDescription);
  }
  const page = errors ? pageOfInputs(form, Object.keys(errors)) : 0;
  return withButton(embed, { label: form.title, id: openFormId(key, page) });
}

/**
 * The answer to a page of a form in pages: what is kept, and a Continue button opening the next page
 * (`at` is the page just submitted, from 0).
 */
export function formStep(form: Form, at: FormPlace): LauncherPayload {
  const pages = at.pages ?? pagesOf(form).length;
  const done = (at.page ?? 0) + 1;
  const embed: APIEmbed = {
    title: clip(`Step ${done} of ${pages} done`, DISCORD.embedTitle),
    color: TONE_COLORS.info,
    description: clip(
      `**${toDiscord(literal(form.title))}**: your answers so far are kept. Continue with page ${done + 1} of ${pages}.`,
      DISCORD.embedDescription,
    ),
  };
  return withButton(embed, { label: 'Continue', id: openFormId(at.key, done) });
}

const withButton = (embed: APIEmbed, button: { label: string; id: string }): LauncherPayload => ({
  embeds: [embed],
  allowed_mentions: NO_PINGS,
  components: [
    {
      type: ComponentType.ActionRow,
      components: [
        {
          type: ComponentType.Button,
          style: ButtonStyle.Primary,
          label: clip(button.label, DISCORD.buttonLabel),
          custom_id: button.id,
        },
      ],
    },
  ],
});
