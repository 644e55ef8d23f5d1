/**
 * Commands as a Discord member types them. The core names commands with command tokens (`command('link')`,
 * src/core/text/command-ref.ts); Discord's limit of 25 subcommands puts some of them in Discord-only groups
 * (`/reel account link`, commands.ts), and Discord's client takes options by name (`video:abc`), not `--flags`.
 * `DiscordRenderer` (render.ts) passes everything the adapter sends through `CommandNames` first, which
 * writes each token in that syntax: as inline code in card markdown, as plain words in labels, hints and
 * titles. The table comes from `CommandRoutes`, the one that registers `/reel`, so the two cannot drift apart.
 */

import type {
  Card,
  CommandArg,
  CommandRef,
  Confirm,
  Control,
  Field,
  Form,
  FormInput,
  Section,
  SelectOption,
  UsageOption,
} from '../../src/core/index.js';
import {
  type CardText,
  code,
  literal,
  mapCommands,
  pieceSource,
  restore,
  shield,
} from '../../src/core/index.js';
import { type CommandRoute, type CommandRoutes, discordName, MORE_OPTION } from './commands.js';

/** Options whose value names a command (core command → option): read back with `coreName`. */
export const COMMAND_ARGUMENTS: Readonly<Record<string, string>> = { help: 'command' };

const argText = (arg: CommandArg): string => (arg.hole ? `<${arg.value}>` : arg.value);

export class CommandNames {
  readonly #routes: CommandRoutes;
  /** Discord path → core name, for every command. */
  readonly #core = new Map<string, string>();

  constructor(routes: CommandRoutes) {
    this.#routes = routes;
    for (const route of routes.all()) this.#core.set(pathOf(route), route.command);
  }

  /** `account link` for `link`: the command's words after `/reel` on Discord. */
  path(command: string): string {
    const route = this.#routes.of(command);
    return route ? pathOf(route) : command;
  }

  /** A command reference in Discord's syntax: `/reel account link`, `/reel publish video:x platform:youtube`. */
  render(ref: CommandRef): string {
    const route = this.#routes.of(ref.name);
    const slash = `/reel ${this.path(ref.name)}`;
    switch (ref.kind) {
      case 'name':
        return this.path(ref.name);
      case 'option':
        // An advanced option is typed as a flag in the command's `more` option.
        return route?.advanced.has(ref.option.name)
          ? `${MORE_OPTION}:--${ref.option.name}`
          : `${discordName(ref.option.name)}:`;
      case 'usage':
        return [slash, ...usageWords(ref.options, route)].join(' ');
      case 'run':
        return [slash, ...this.#runWords(ref, route)].join(' ');
    }
  }

  #runWords(ref: Extract<CommandRef, { kind: 'run' }>, route: CommandRoute | undefined): string[] {
    const named: [string, string][] = [];
    const positional = route?.positional ?? [];
    ref.positional.forEach((arg, i) => {
      // Words past the last positional belong to it (a `rest` option takes them all).
      const option = positional[Math.min(i, positional.length - 1)];
      if (option === undefined) return;
      const value =
        COMMAND_ARGUMENTS[ref.name] === option && !arg.hole ? this.#named(arg.value) : argText(arg);
      const last = named.at(-1);
      if (last && last[0] === option) last[1] = `${last[1]} ${value}`;
      else named.push([option, value]);
    });
    const more: string[] = [];
    for (const flag of ref.flags) {
      if (route?.advanced.has(flag.name))
        more.push(flag.value ? `--${flag.name} ${quoted(argText(flag.value))}` : `--${flag.name}`);
      else named.push([flag.name, flag.value ? argText(flag.value) : 'True']);
    }
    const words = named.map(([option, value]) => `${discordName(option)}:${value}`);
    return more.length > 0 ? [...words, `${MORE_OPTION}:${more.join(' ')}`] : words;
  }

  /** A command named as a value (`help link`) → its Discord path (`account link`). */
  #named(value: string): string {
    const route = this.#routes.of(value.trim().toLowerCase());
    return route ? pathOf(route) : value;
  }

  /** Plain text with every command token written in Discord's syntax, as words. */
  #resolve(text: string): string {
    if (!text.includes('⟦/')) return text;
    const { text: held, pieces } = shield(text);
    return restore(held, pieces, (piece) =>
      piece.kind === 'command' ? this.render(piece.command) : pieceSource(piece),
    );
  }

  /** Card markdown (texts, fields, context): commands as inline code. */
  markdown(text: CardText): CardText {
    return mapCommands(text, (command) => code(this.render(command)));
  }

  /** Plain text (labels, hints, placeholders), shown as written: commands as words. */
  plain(text: string): string {
    return this.#resolve(text);
  }

  /** A title (help's card for one command): commands as words, escaped as card markdown. */
  title(text: CardText): CardText {
    return mapCommands(text, (command) => literal(this.render(command)));
  }

  /**
   * What a member typed to name a command (`help`'s argument) → the core's name: `account link` and
   * `/reel account link` become `link`; anything else is returned as typed, for the core to judge.
   */
  coreName(typed: string): string {
    const words = typed
      .trim()
      .replace(/^\/?reel\s+/i, '')
      .split(/\s+/);
    for (const length of [2, 1]) {
      if (words.length < length) continue;
      const core = this.#core.get(words.slice(0, length).join(' ').toLowerCase());
      if (core !== undefined) return [core, ...words.slice(length)].join(' ');
    }
    return typed;
  }

  card(card: Card): Card {
    const out: Card = { ...card, title: this.title(card.title) };
    if (card.text !== undefined) out.text = this.markdown(card.text);
    if (card.context !== undefined) out.context = this.markdown(card.context);
    if (card.progress?.label !== undefined)
      out.progress = { ...card.progress, label: this.markdown(card.progress.label) };
    if (card.fields) out.fields = card.fields.map((f) => this.#field(f));
    if (card.sections) out.sections = card.sections.map((s) => this.#section(s));
    if (card.controls) out.controls = card.controls.map((c) => this.#control(c));
    return out;
  }

  confirm(confirm: Confirm): Confirm {
    return {
      title: this.title(confirm.title),
      text: this.markdown(confirm.text),
      confirm: this.plain(confirm.confirm),
      deny: this.plain(confirm.deny),
    };
  }

  /** A form's texts; initial values are what the member typed and stay as they are. */
  form(form: Form): Form {
    return {
      ...form,
      title: this.plain(form.title),
      submitLabel: this.plain(form.submitLabel),
      ...(form.intro !== undefined ? { intro: this.markdown(form.intro) } : {}),
      inputs: form.inputs.map((input) => this.#input(input)),
    };
  }

  /** Inline form errors, keyed by input id (card markdown). */
  errors(errors: Record<string, CardText>): Record<string, CardText> {
    return Object.fromEntries(Object.entries(errors).map(([id, text]) => [id, this.markdown(text)]));
  }

  #field(field: Field): Field {
    return { ...field, label: this.markdown(field.label), value: this.markdown(field.value) };
  }

  #section(section: Section): Section {
    const out: Section = { ...section };
    if (section.text !== undefined) out.text = this.markdown(section.text);
    if (section.fields) out.fields = section.fields.map((f) => this.#field(f));
    if (section.controls) out.controls = section.controls.map((c) => this.#control(c));
    return out;
  }

  #option(option: SelectOption): SelectOption {
    return {
      ...option,
      label: this.plain(option.label),
      ...(option.description !== undefined ? { description: this.plain(option.description) } : {}),
    };
  }

  #control(control: Control): Control {
    switch (control.kind) {
      case 'link':
        return { ...control, label: this.plain(control.label) };
      case 'button':
        return {
          ...control,
          label: this.plain(control.label),
          ...(control.confirm ? { confirm: this.confirm(control.confirm) } : {}),
        };
      case 'select':
        return {
          ...control,
          placeholder: this.plain(control.placeholder),
          options: control.options.map((o) => this.#option(o)),
        };
    }
  }

  #input(input: FormInput): FormInput {
    const label = this.plain(input.label);
    const hint = input.hint !== undefined ? { hint: this.plain(input.hint) } : {};
    if (input.kind === 'select')
      return { ...input, label, ...hint, options: input.options.map((o) => this.#option(o)) };
    if (input.kind === 'file') return { ...input, label, ...hint };
    return {
      ...input,
      label,
      ...hint,
      ...(input.placeholder !== undefined ? { placeholder: this.plain(input.placeholder) } : {}),
    };
  }
}

const pathOf = (route: CommandRoute): string => [route.group, route.sub].filter(Boolean).join(' ');

/** A usage line's options, as Discord's client shows them: `script:<script>`, `[voice:<voice>]`. */
function usageWords(options: readonly UsageOption[], route: CommandRoute | undefined): string[] {
  // Options Discord does not register (link's key) cannot be typed there.
  const known = new Set(route?.options.values() ?? options.map((o) => o.name));
  const shown = options.filter((o) => known.has(o.name));
  // Discord lists required options first, whatever the core's order.
  shown.sort((a, b) => Number(b.required) - Number(a.required));
  const words = shown.map((o) => {
    const word = `${discordName(o.name)}:${o.boolean ? 'True' : `<${o.name}>`}`;
    return o.required ? word : `[${word}]`;
  });
  return route && route.advanced.size > 0 ? [...words, `[${MORE_OPTION}:<flags>]`] : words;
}

/** A flag's value as the text parser reads it back: quoted when it has spaces. */
const quoted = (value: string): string => (/\s/.test(value) ? `"${value.replace(/"/g, '\\"')}"` : value);
