/**
 * The Block Kit pieces every part of a card is built from: text sections, images, buttons, selects and
 * their confirmations, with the limits Slack checks (https://docs.slack.dev/reference/block-kit/blocks):
 * 3000 characters per section text, 25 elements per actions block, 75 per button label, 2000 per button
 * value, 100 options per select. Action ids carry the core's action and a number (`encodeActionId`).
 */
import type { types } from '@slack/bolt';
import type { Button, Confirm, Control, Image } from '../../src/core/index.js';
import { withLists } from './rich-text.js';
import { splitMrkdwn, toMrkdwn, toPlain, truncate } from './text.js';

export type Block = types.KnownBlock;

export type ActionElement = types.Button | types.StaticSelect;

export const LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3000,
  header: 150,
  fieldsPerSection: 10,
  fieldText: 2000,
  actionsPerBlock: 25,
  buttonLabel: 75,
  buttonValue: 2000,
  actionId: 255,
  selectOptions: 100,
  optionText: 75,
  optionValue: 150,
  placeholder: 150,
  altText: 2000,
  imageUrl: 3000,
  contextText: 3000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  /** `text` beside blocks is the notification and screen-reader fallback. */
  fallbackText: 3000,
} as const;

/** Action ids are `<core action>|<n>`: Slack wants them unique per block, the core only knows its name. */
const SEPARATOR = '|';

/** Link buttons and the adapter's own buttons start with '-', which no core action does. */
export const LINK_ACTION = '-link';

export const OPEN_FORM_ACTION = '-open-form';

export const encodeActionId = (action: string, n: number): string =>
  truncate(action, LIMITS.actionId - 6) + SEPARATOR + String(n);

/** The core action of an action id built by `encodeActionId` (or the id itself). */
export function decodeActionId(actionId: string): string {
  const at = actionId.lastIndexOf(SEPARATOR);
  return at > 0 && /^\d+$/.test(actionId.slice(at + 1)) ? actionId.slice(0, at) : actionId;
}

/** Card text as mrkdwn sections; its bullet lists as `rich_text` lists (rich-text.ts). */
export function textSections(text: string): Block[] {
  return splitMrkdwn(toMrkdwn(text), LIMITS.sectionText).flatMap(
    (piece): Block[] => withLists(piece) ?? [{ type: 'section', text: { type: 'mrkdwn', text: piece } }],
  );
}

export function imageBlock(image: Image, title?: string): Block {
  return {
    type: 'image',
    image_url: image.url.slice(0, LIMITS.imageUrl),
    alt_text: truncate(toPlain(image.alt) || 'image', LIMITS.altText),
    ...(title ? { title: plain(title, 2000) } : {}),
  };
}

export function imageElement(image: Image): types.ImageElement {
  return {
    type: 'image',
    image_url: image.url.slice(0, LIMITS.imageUrl),
    alt_text: truncate(toPlain(image.alt) || 'image', LIMITS.altText),
  };
}

export function actionBlocks(
  controls: Control[],
  counter: { n: number },
  options: { withoutActions?: boolean },
): Block[] {
  const elements: ActionElement[] = [];
  for (const control of controls) {
    if (options.withoutActions && control.kind !== 'link') continue;
    const element = controlElement(control, counter.n++);
    if (element) elements.push(element);
  }
  const blocks: Block[] = [];
  for (let i = 0; i < elements.length; i += LIMITS.actionsPerBlock) {
    blocks.push({ type: 'actions', elements: elements.slice(i, i + LIMITS.actionsPerBlock) });
  }
  return blocks;
}

export function controlElement(control: Control, n: number): ActionElement | undefined {
  switch (control.kind) {
    case 'button':
      return buttonElement(control, n);
    case 'link':
      return {
        type: 'button',
        action_id: encodeActionId(LINK_ACTION, n),
        text: plain(control.label, LIMITS.buttonLabel),
        url: control.url.slice(0, LIMITS.imageUrl),
      };
    case 'select': {
      const options = control.options.slice(0, LIMITS.selectOptions).map((o) => option(o.label, o.value));
      if (options.length === 0) return undefined;
      const initial = options.find((o) => o.value === control.initial);
      return {
        type: 'static_select',
        action_id: encodeActionId(control.action, n),
        placeholder: plain(control.placeholder, LIMITS.placeholder),
        options,
        ...(initial ? { initial_option: initial } : {}),
      };
    }
  }
}

export function buttonElement(button: Button, n: number): types.Button {
  return {
    type: 'button',
    action_id: encodeActionId(button.action, n),
    text: plain(button.label, LIMITS.buttonLabel),
    // A value Slack would refuse cannot be cut usefully (it carries ids): the core keeps values short.
    value: button.value.slice(0, LIMITS.buttonValue),
    ...(button.style ? { style: button.style } : {}),
    ...(button.confirm ? { confirm: confirmDialog(button.confirm, button.style === 'danger') } : {}),
  };
}

function confirmDialog(confirm: Confirm, danger: boolean): types.ConfirmationDialog {
  return {
    title: plain(confirm.title, LIMITS.confirmTitle),
    text: { type: 'plain_text', text: truncate(toPlain(confirm.text), LIMITS.confirmText) },
    confirm: plain(confirm.confirm, LIMITS.confirmButton),
    deny: plain(confirm.deny, LIMITS.confirmButton),
    ...(danger ? { style: 'danger' as const } : {}),
  };
}

export function option(label: string, value: string, description?: string): types.PlainTextOption {
  return {
    text: plain(label, LIMITS.optionText),
    value: value.slice(0, LIMITS.optionValue),
    ...(description ? { description: plain(description, LIMITS.optionText) } : {}),
  };
}

export const plain = (text: string, max: number): types.PlainTextElement => ({
  type: 'plain_text',
  text: truncate(toPlain(text), max) || ' ',
  emoji: true,
});
