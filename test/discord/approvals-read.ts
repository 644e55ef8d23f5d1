/**
 * Reading Discord back for the approval scenarios: what the fake recorded (embeds, components, modals) turned
 * into the driver's neutral shapes — a card's title, readable text, buttons (action and value from their
 * `custom_id`), image; a modal's form id, state and inputs; a form launcher's errors by input id.
 */

import { TONE_COLORS } from '../../adapters/discord/components.js';
import { parseCustomId } from '../../adapters/discord/custom-id.js';
import type { ButtonRef, ShownCard, ShownForm } from '../core/approvals/driver.js';
import type { FakeMessage } from './fake-discord.js';
import { accentOf, controlsIn, imagesOf, isV2, textDisplaysOf, titleOf } from './read-message.js';
import { type Json, textOfMessage } from './world.js';

const BUTTON = 2;
const LINK = 5;
const TEXT_INPUT = 4;
const STRING_SELECT = 3;
const LABEL = 18;

/** The `custom_id` each button read back carried, so a click sends exactly what Discord would. */
export const customIds = new WeakMap<ButtonRef, string>();

/** Buttons that run something (link buttons and selects are not clickable actions). */
function buttonsOf(message: FakeMessage): ButtonRef[] {
  return controlsIn(message).flatMap((c) => {
    if (c.type !== BUTTON || c.style === LINK || typeof c.custom_id !== 'string') return [];
    const id = parseCustomId(c.custom_id);
    const target =
      id?.kind === 'action' || id?.kind === 'confirm'
        ? { action: id.action, value: id.value }
        : // Kept in the adapter's memory (too long for 100 characters): only its custom_id names it.
          { action: `discord:${c.custom_id}`, value: '' };
    const ref: ButtonRef = { ...target, label: String(c.label ?? ''), message: message.id };
    customIds.set(ref, c.custom_id);
    return [ref];
  });
}

/** A message as the driver shows a card: everything readable (V2 or embeds), its buttons, its image. */
export function shownOf(message: FakeMessage): ShownCard {
  const image = isV2(message) ? imagesOf(message)[0] : message.embeds[0]?.image?.url;
  return {
    title: titleOf(message),
    text: textOfMessage(message),
    buttons: buttonsOf(message),
    ...(typeof image === 'string' ? { image } : {}),
    message: message.id,
    ...(message.files?.[0] ? { file: message.files[0].content } : {}),
  };
}

/** The clicked button as the message carries it now, else undefined (the button is gone). */
export function currentCustomId(message: FakeMessage, b: ButtonRef): string | undefined {
  const known = customIds.get(b);
  for (const ref of buttonsOf(message)) {
    const id = customIds.get(ref);
    if (known !== undefined ? id === known : ref.action === b.action && ref.value === b.value) return id;
  }
  return undefined;
}

/** A modal Discord was asked to open, as the driver's form. */
export function formOfModal(modal: Json, message?: string): ShownForm {
  const id = parseCustomId(String(modal.custom_id));
  if (id?.kind !== 'modal') throw new Error(`not a reelbot modal: ${modal.custom_id}`);
  return {
    // `m|key` alone when the state did not fit: the key then stands for the form.
    id: id.formId ?? id.key,
    state: id.state ?? '',
    inputs: inputsOf(modal).map((i) => i.id),
    ...(message ? { message } : {}),
  };
}

/** The modal's inputs (each in a Label), with their label and kind. */
export function inputsOf(modal: Json): { id: string; label: string; type: number; value?: string }[] {
  return ((modal.components ?? []) as Json[]).flatMap((c) => {
    if (c.type !== LABEL) return [];
    const inner = c.component as Json;
    if (inner.type !== TEXT_INPUT && inner.type !== STRING_SELECT) return [];
    return [
      {
        id: String(inner.custom_id),
        label: String(c.label),
        type: inner.type,
        ...(typeof inner.value === 'string' ? { value: inner.value } : {}),
      },
    ];
  });
}

/** A message whose one button opens a form (`o|key`): after a deferral, a modal-from-modal, or errors. */
export function launcherOf(message: FakeMessage): { customId: string; errors: boolean } | undefined {
  const components = controlsIn(message);
  const only = components.length === 1 ? components[0] : undefined;
  if (!only || parseCustomId(String(only.custom_id))?.kind !== 'open-form') return undefined;
  return { customId: String(only.custom_id), errors: accentOf(message) === TONE_COLORS.danger };
}

/** `**Label**: problem` lines of an error launcher, keyed back to input ids through the submitted modal. */
export function errorsOf(message: FakeMessage, modal: Json | undefined): Record<string, string> {
  const byLabel = new Map((modal ? inputsOf(modal) : []).map((i) => [i.label, i.id]));
  const errors: Record<string, string> = {};
  const text = isV2(message)
    ? textDisplaysOf(message).join('\n')
    : String(message.embeds[0]?.description ?? '');
  for (const line of text.split('\n')) {
    const m = /^\*\*(.+?)\*\*: (.*)$/.exec(line);
    if (m) errors[byLabel.get(m[1] as string) ?? (m[1] as string)] = m[2] as string;
  }
  return errors;
}
