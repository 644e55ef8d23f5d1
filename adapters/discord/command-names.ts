/**
 * The core names its commands the way Slack and the playground type them (`/reel link`), but Discord's limit
 * of 25 subcommands puts some of them in Discord-only groups (`/reel account link`, commands.ts). Everything
 * the adapter sends goes through `DiscordRenderer` (renderer.ts), which passes the core's texts through
 * `CommandNames` first, so a member reads commands they can actually type. The table comes from
 * `CommandRoutes`, the one that registers `/reel`, so the two cannot drift apart.
 *
 * Only command references change, and only where the core marks them as commands:
 * - inside code spans and code blocks of card markdown, `/reel <command words>`, longest name first
 *   (`` `/reel link --x` `` → `` `/reel account link --x` ``; arguments and flags stay as written), and a span
 *   that is exactly a regrouped command's name, as help and the scope lists name them (`` `link` `` →
 *   `` `account link` ``);
 * - a title that starts with `/reel ` (help's card for one command);
 * - in plain text (form labels and hints, button and option labels), which has no code spans,
 *   `/reel <command words>` wherever it stands.
 * Prose outside code is left as written: the core puts command references in code, and prose carries user text.
 *
 * The registration payload keeps the core's option descriptions ("see `/reel options styles`"): `/reel` sits
 * close to Discord's 8000 characters, and the longer paths made the size fitting cut some 30 descriptions
 * mid-word, these references included.
 */
import type {
  Card,
  Confirm,
  Control,
  Field,
  Form,
  FormInput,
  Section,
  SelectOption,
} from '../../src/core/cards.js';
import { type Piece, restore, shield } from '../../src/core/text.js';
import type { CommandRoutes } from './commands.js';

/** A code block (```…```, may span lines) or an inline code span, in shielded text. */
const CODE = /```([\s\S]*?)```|`([^`\n]+)`/g;

/** A held piece as the core wrote it, so text goes back unchanged around a rewritten span. */
function source(piece: Piece): string {
  if (piece.kind === 'char') return `\\${piece.char}`;
  return `⟦${piece.target.kind === 'channel' ? '#' : '@'}${piece.ref}⟧`;
}

/** Options whose value names a command (core command → option): read back with `coreName`. */
export const COMMAND_ARGUMENTS: Readonly<Record<string, string>> = { help: 'command' };

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export class CommandNames {
  /** Core name → Discord path (`link` → `account link`), only for commands whose path differs. */
  readonly #moved = new Map<string, string>();
  /** Discord path → core name, for every command. */
  readonly #core = new Map<string, string>();
  /** `/reel <any core name>`, longest name first so `series create` wins over a shorter name. */
  readonly #slash: RegExp | undefined;

  constructor(routes: CommandRoutes) {
    const names: string[] = [];
    for (const route of routes.all()) {
      const path = [route.group, route.sub].filter(Boolean).join(' ');
      this.#core.set(path, route.command);
      names.push(route.command);
      if (path !== route.command) this.#moved.set(route.command, path);
    }
    if (this.#moved.size === 0) return;
    names.sort((a, b) => b.length - a.length);
    const alternatives = names.map((n) => escapeRe(n).replace(/ /g, '\\s+')).join('|');
    // Not inside a longer word or path on either side (`/reel linked`, `x/reel link`).
    this.#slash = new RegExp(`(?<![\\w/-])(/reel\\s+)(${alternatives})(?![\\w-])`, 'g');
  }

  /** `/reel link` → `/reel account link` anywhere in `text` (code span contents, plain text, titles). */
  #inCommandText(text: string): string {
    const slash = this.#slash;
    if (!slash) return text;
    return text.replace(slash, (whole, prefix: string, name: string) => {
      const moved = this.#moved.get(name.replace(/\s+/g, ' '));
      return moved ? `${prefix}${moved}` : whole;
    });
  }

  /** Card markdown: command references inside code spans and blocks; prose untouched. */
  markdown(text: string): string {
    if (!this.#slash || !text.includes('`')) return text;
    const { text: held, pieces } = shield(text);
    let changed = false;
    const rewritten = held.replace(CODE, (whole, block: string | undefined, inline: string | undefined) => {
      let next: string;
      if (block !== undefined) next = `\`\`\`${this.#inCommandText(block)}\`\`\``;
      else {
        const span = inline as string;
        // A span holding just a regrouped command's name (help's list, "`unlink` removes it").
        const bare = this.#moved.get(span.trim());
        next = `\`${bare !== undefined ? span.replace(span.trim(), bare) : this.#inCommandText(span)}\``;
      }
      if (next !== whole) changed = true;
      return next;
    });
    // Nothing to rename: the text goes on exactly as the core wrote it.
    return changed ? restore(rewritten, pieces, source) : text;
  }

  /** Plain text (labels, hints, placeholders): it has no code spans, so `/reel ` alone marks a command. */
  plain(text: string): string {
    return this.#inCommandText(text);
  }

  /** A title: a command when it starts with `/reel ` (help's card for one command), else markdown. */
  title(text: string): string {
    return text.startsWith('/reel ') ? this.#inCommandText(text) : this.markdown(text);
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
  errors(errors: Record<string, string>): Record<string, string> {
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
    return {
      ...input,
      label,
      ...hint,
      ...(input.placeholder !== undefined ? { placeholder: this.plain(input.placeholder) } : {}),
    };
  }
}
