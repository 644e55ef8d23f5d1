/**
 * The core's forms as Discord modals (title ≤45, at most five components): each input in a Label (its hint as
 * the label's description), text inputs as text inputs, selects as string selects (a select with more options
 * than Discord lists becomes a text input naming them), the intro as a text display when there is room.
 * Discord has no inline errors and cannot open a modal after a deferral: both cases get a message with a
 * button that opens the form (prefilled after errors).
 */
import {
  type APIEmbed,
  type APIModalInteractionResponseCallbackData,
  ButtonStyle,
  ComponentType,
  TextInputStyle,
} from 'discord.js';
import type { Form, FormInput } from '../../src/core/cards.js';
import { literal } from '../../src/core/text.js';
import { type MessagePayload, type RenderMemory, TONE_COLORS } from './components.js';
import { modalId, openFormId } from './custom-id.js';
import { clip, DISCORD } from './limits.js';
import { NO_PINGS, toDiscord } from './text.js';

type ModalComponent = APIModalInteractionResponseCallbackData['components'][number];

export function renderModal(
  form: Form,
  key: string,
  memory: RenderMemory,
): APIModalInteractionResponseCallbackData {
  const inputs = form.inputs.slice(0, DISCORD.modalComponents);
  const components: ModalComponent[] = [];
  if (form.intro?.trim() && inputs.length < DISCORD.modalComponents) {
    components.push({
      type: ComponentType.TextDisplay,
      content: clip(toDiscord(form.intro.trim()), DISCORD.textDisplay),
    });
  }
  for (const input of inputs) components.push(labelOf(input, memory));
  return {
    custom_id: modalId(key, form.id, form.state),
    title: clip(form.title, DISCORD.modalTitle) || form.id.slice(0, DISCORD.modalTitle),
    components,
  };
}

function labelOf(input: FormInput, memory: RenderMemory): ModalComponent {
  const label = {
    type: ComponentType.Label as const,
    label: clip(input.label, DISCORD.labelText),
    ...(input.hint ? { description: clip(input.hint, DISCORD.labelDescription) } : {}),
  };
  if (input.kind === 'select' && input.options.length <= DISCORD.selectOptions) {
    return {
      ...label,
      component: {
        type: ComponentType.StringSelect,
        custom_id: input.id,
        required: input.required === true,
        min_values: input.required ? 1 : 0,
        max_values: 1,
        options: input.options.map((o) => ({
          label: clip(o.label, DISCORD.selectOptionLabel),
          value: o.value.length <= DISCORD.selectOptionValue ? o.value : memory.keepValue(o.value),
          ...(o.description ? { description: clip(o.description, DISCORD.selectOptionDescription) } : {}),
          ...(o.value === input.initial ? { default: true } : {}),
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
    if (input?.kind === 'select' && !field.values) {
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

/** The form with the submitted values as its initial ones, so "fix it" reopens it filled in. */
export function prefilled(form: Form, values: Record<string, string>): Form {
  return {
    ...form,
    inputs: form.inputs.map((input) =>
      // A secret is typed again: the form (with its values) waits in memory until the member reopens it.
      values[input.id] !== undefined && values[input.id] !== '' && !(input.kind === 'text' && input.secret)
        ? { ...input, initial: values[input.id] as string }
        : input,
    ),
  };
}

/**
 * A message whose button opens the form: after a deferral (a modal must be the first response) and after a
 * submission with errors (listed, by input label).
 */
export function formLauncher(form: Form, key: string, errors?: Record<string, string>): MessagePayload {
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
  } else if (form.intro?.trim()) {
    embed.description = clip(toDiscord(form.intro.trim()), DISCORD.embedDescription);
  }
  return {
    embeds: [embed],
    allowed_mentions: NO_PINGS,
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Primary,
            label: clip(form.title, DISCORD.buttonLabel),
            custom_id: openFormId(key),
          },
        ],
      },
    ],
  };
}
