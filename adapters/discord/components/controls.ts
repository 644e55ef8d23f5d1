/** A card's controls as Discord buttons and selects, five buttons to an action row. */
import {
  type APIActionRowComponent,
  type APIButtonComponent,
  type APIComponentInMessageActionRow,
  type APIStringSelectComponent,
  ButtonStyle,
  ComponentType,
} from 'discord.js';
import type { Button, Control, Select } from '../../../src/core/index.js';
import type { RenderMemory } from '../components.js';
import { actionId, stashedId } from '../custom-id.js';
import { clip, DISCORD } from '../limits.js';
import { EMPTY, isWebUrl } from './parts.js';

export type ActionRow = APIActionRowComponent<APIComponentInMessageActionRow>;
export type Interactive = APIButtonComponent | APIStringSelectComponent;

/** Buttons five to a row; a select alone on its row. */
export function rowsOf(components: readonly Interactive[]): ActionRow[] {
  const rows: ActionRow[] = [];
  let buttons: APIButtonComponent[] = [];
  const flush = () => {
    if (buttons.length > 0) rows.push({ type: ComponentType.ActionRow, components: buttons });
    buttons = [];
  };
  for (const component of components) {
    if (component.type === ComponentType.StringSelect) {
      flush();
      rows.push({ type: ComponentType.ActionRow, components: [component] });
      continue;
    }
    buttons.push(component);
    if (buttons.length === DISCORD.buttonsPerRow) flush();
  }
  flush();
  return rows;
}

/** What rendering a card's controls shares: the memory of long values, and the custom ids already used. */
export interface ControlContext {
  memory: RenderMemory;
  taken: Set<string>;
}

/** A control as a button or select; undefined for a link Discord would refuse. */
export function renderControl(control: Control, { memory, taken }: ControlContext): Interactive | undefined {
  const label = clip(control.kind === 'select' ? '' : control.label, DISCORD.buttonLabel) || EMPTY;
  switch (control.kind) {
    case 'link':
      if (!isWebUrl(control.url) || control.url.length > DISCORD.linkUrl) return undefined;
      return { type: ComponentType.Button, style: ButtonStyle.Link, label, url: control.url };
    case 'button':
      return renderButton(control, { memory, taken }, label);
    case 'select':
      return renderSelect(control, { memory, taken });
  }
}

const STYLES = { primary: ButtonStyle.Primary, danger: ButtonStyle.Danger } as const;

function renderButton(button: Button, { memory, taken }: ControlContext, label: string): APIButtonComponent {
  const kind = button.confirm ? 'confirm' : 'action';
  if (button.confirm) memory.keepConfirm(button.action, button.value, button.confirm);
  const customId =
    actionId({ kind, action: button.action, value: button.value }, taken) ??
    stashedId(
      memory.keepAction({
        action: button.action,
        value: button.value,
        ...(button.confirm ? { confirm: button.confirm } : {}),
      }),
    );
  return {
    type: ComponentType.Button,
    style: button.style ? STYLES[button.style] : ButtonStyle.Secondary,
    label,
    custom_id: customId,
  };
}

function renderSelect(select: Select, { memory, taken }: ControlContext): APIStringSelectComponent {
  const customId =
    actionId({ kind: 'action', action: select.action, value: '' }, taken) ??
    stashedId(memory.keepAction({ action: select.action, value: '' }));
  const options = select.options.slice(0, DISCORD.selectOptions).map((o) => ({
    label: clip(o.label, DISCORD.selectOptionLabel) || EMPTY,
    value: o.value.length <= DISCORD.selectOptionValue ? o.value : memory.keepValue(o.value),
    ...(o.description ? { description: clip(o.description, DISCORD.selectOptionDescription) } : {}),
    ...(o.value === select.initial ? { default: true } : {}),
  }));
  return {
    type: ComponentType.StringSelect,
    custom_id: customId,
    placeholder: clip(select.placeholder, DISCORD.selectPlaceholder),
    min_values: 1,
    max_values: 1,
    options,
  };
}
