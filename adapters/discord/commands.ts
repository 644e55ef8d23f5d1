/**
 * The core's commands as one Discord application command: `/reel <command>` subcommands with typed options,
 * `series …` as a subcommand group (DESIGN §8). Discord allows 25 entries per level, fewer than the core has
 * commands, so the set-up commands sit in Discord-only groups (`/reel account link` runs the core's `link`);
 * everything used daily stays one level deep.
 */
import {
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
  type APIApplicationCommandSubcommandGroupOption,
  type APIApplicationCommandSubcommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionContextType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';
import type { CommandSpec, OptionSpec, RawArgs } from '../../src/core/index.js';
import {
  createRegistry,
  err,
  groupSummary,
  ok,
  PLATFORMS,
  parseCommandText,
  type Result,
  splitName,
  tokenize,
  userError,
} from '../../src/core/index.js';
import { CommandNames } from './command-names.js';
import { FILE_OPTION, MAKE_VIDEO_COMMAND_PAYLOAD } from './file-input.js';
import { clip, DISCORD } from './limits.js';

export const ROOT_COMMAND = 'reel';
/**
 * The most characters `/reel` may count (Discord's cap is 8000): the rest is room for commands still to come.
 * A test fails when the payload, before any description is shortened, is larger.
 */
export const COMMAND_BUDGET = 6_500;
/** The one text option through which a command's advanced options are typed, as `--flags`. */
export const MORE_OPTION = 'more';
/** The `more` option's description, with an example flag of the command's own. */
const moreDescription = (advanced: ReadonlySet<string>): string => {
  const example = advanced.has('tone') ? 'tone funny' : [...advanced][0];
  return `More settings as flags, e.g. --${example}`;
};
const ROOT_DESCRIPTION = 'Create, render, schedule and publish AI videos from this channel';

/** Discord-only groups for the commands a member runs once or rarely (see the file comment). */
const GROUPED: Readonly<Record<string, string>> = {
  link: 'account',
  unlink: 'account',
  whoami: 'account',
  tz: 'account',
  notify: 'account',
  settings: 'channel',
  subscribe: 'channel',
  unsubscribe: 'channel',
  audit: 'channel',
  voices: 'catalog',
  options: 'catalog',
  accounts: 'catalog',
  asset: 'catalog',
};

/** Where a core command lives on Discord, and its option names there. */
export interface CommandRoute {
  command: string;
  group?: string;
  sub: string;
  /** Discord option name → core option name. */
  options: Map<string, string>;
  /** The core's positional options (their core names) in order, as text reads them. */
  positional: readonly string[];
  /** The core's advanced options (not typed options on Discord): typed as flags in the `more` option. */
  advanced: ReadonlySet<string>;
}

/** Discord wants lowercase names of letters, digits, `-` and `_`. */
export function discordName(name: string): string {
  const cleaned = name
    .toLowerCase()
    .replace(/[^-_\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return (cleaned || 'x').slice(0, 32);
}

export function routeOf(spec: CommandSpec): CommandRoute {
  const { group, sub } = splitName(spec.name);
  // A secret (`link`'s key) goes through the private form only: a typed option would invite pasting it.
  const shown = spec.options.filter((o) => !o.secret && !o.hidden);
  const options = new Map(shown.filter((o) => !o.advanced).map((o) => [discordName(o.name), o.name]));
  const discordGroup = group ?? GROUPED[sub];
  return {
    command: spec.name,
    ...(discordGroup ? { group: discordName(discordGroup) } : {}),
    sub: discordName(sub),
    options,
    positional: shown.filter((o) => o.positional && !o.advanced).map((o) => o.name),
    advanced: new Set(shown.filter((o) => o.advanced).map((o) => o.name)),
  };
}

/** Finds the core command a `/reel [group] sub` invocation names. */
export class CommandRoutes {
  readonly #byPath = new Map<string, CommandRoute>();
  readonly #byCommand = new Map<string, CommandRoute>();

  constructor(commands: readonly CommandSpec[]) {
    for (const spec of commands) {
      const route = routeOf(spec);
      this.#byPath.set(`${route.group ?? ''} ${route.sub}`, route);
      this.#byCommand.set(spec.name, route);
    }
  }

  /** Every route, in the core's order. */
  all(): readonly CommandRoute[] {
    return [...this.#byCommand.values()];
  }

  /** Where a core command lives on Discord. */
  of(command: string): CommandRoute | undefined {
    return this.#byCommand.get(command);
  }

  find(group: string | undefined, sub: string): CommandRoute | undefined {
    return this.#byPath.get(`${group ?? ''} ${sub}`);
  }

  /** `/reel account link` for `link`: how a command is typed on Discord. */
  slashOf(command: string): string | undefined {
    const route = this.#byCommand.get(command);
    return route && ['/reel', route.group, route.sub].filter(Boolean).join(' ');
  }
}

/**
 * The `more` option's text (`--tone funny --privacy unlisted`) as the core's raw arguments, read by the core's
 * own parser, so flags mean on Discord what they mean in text. Only flags: a stray word is refused, not taken
 * as a positional argument.
 */
export function flagsOf(spec: CommandSpec, text: string): Result<RawArgs> {
  const tokens = tokenize(text);
  if (!tokens.ok) return tokens;
  const parsed = parseCommandText(`${spec.name} ${text}`, createRegistry([spec]));
  if (!parsed.ok) return parsed;
  const given = new Set(
    tokens.value
      .filter((t) => !t.quoted && t.text.startsWith('--'))
      .map((t) => t.text.slice(2).split('=')[0]?.toLowerCase()),
  );
  for (const [name, value] of Object.entries(parsed.value.raw)) {
    if (!given.has(name)) return err(userError('extra-arg', { value: String(value), command: spec.name }));
  }
  return ok(parsed.value.raw);
}

/** Writes the command references of a description (`see /reel catalog options kind:styles`). */
type Describe = (text: string) => string;

/** A pointer to another command (`(see /reel catalog options kind:styles)`), which suggestions make moot. */
const SEE_COMMAND = /[\s,;]*\(?\bsee ⟦[^⟧]*⟧\)?/g;
/** An option's list of the platforms, which its choices show. */
const LISTS_PLATFORMS = /\byoutube, tiktok\b/i;
/**
 * Most characters a choice list may count before it is suggested while typing instead (choices count against
 * the payload's size, suggestions do not). Platforms stay choices: the names members pick most.
 */
const CHOICES_MAX_CHARS = 30;

/**
 * A command's summary as Discord's picker shows it: its head, before the details after a colon or in
 * parentheses (`Show a video’s details: script, voice…` → `Show a video’s details`); `help` keeps it whole.
 */
export function discordSummary(summary: string): string {
  const head = summary.split(/:\s|\s\(/)[0]?.trim() ?? '';
  return head.length >= 12 ? head : summary.trim();
}

/** What an option's description says on Discord: without what its choices or suggestions already show. */
function discordDescription(o: OptionSpec): string {
  if (o.kind === 'platform' && LISTS_PLATFORMS.test(o.description)) return 'Platform';
  return o.catalog ? o.description.replace(SEE_COMMAND, '') : o.description;
}

/**
 * One typed option. A command with a form registers none as required: `/reel series create` alone opens the
 * form, which asks for them.
 */
function optionOf(
  o: OptionSpec,
  context: { describe: Describe; form: boolean },
): APIApplicationCommandBasicOption {
  const base = {
    name: discordName(o.name),
    description: clip(context.describe(discordDescription(o)).trim() || o.name, DISCORD.commandDescription),
    required: o.required === true && !context.form,
  };
  // Catalog values are suggested from the team's catalog while typing (any value may still be typed).
  if (o.catalog && (o.kind === 'string' || o.kind === 'choice')) {
    return { ...base, type: ApplicationCommandOptionType.String, autocomplete: true };
  }
  switch (o.kind) {
    case 'int':
      return {
        ...base,
        type: ApplicationCommandOptionType.Integer,
        ...(o.min !== undefined ? { min_value: o.min } : {}),
        ...(o.max !== undefined ? { max_value: o.max } : {}),
      };
    case 'boolean':
      return { ...base, type: ApplicationCommandOptionType.Boolean };
    case 'choice': {
      const choices = o.choices ?? [];
      // More choices than Discord lists, or long ones: the core's suggestions filter them as the member types.
      const chars = choices.reduce((n, c) => n + 2 * c.length, 0);
      if (choices.length > DISCORD.choicesPerOption || choices.length === 0 || chars > CHOICES_MAX_CHARS) {
        return { ...base, type: ApplicationCommandOptionType.String, autocomplete: true };
      }
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        choices: choices.map((c) => ({
          name: clip(c, DISCORD.choiceName),
          value: c.slice(0, DISCORD.choiceValue),
        })),
      };
    }
    case 'platform':
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        choices: PLATFORMS.map((p) => ({ name: p, value: p })),
      };
    // Several platforms (`youtube,tiktok` or `all`) are one text: suggested as typed, not a single choice.
    case 'platforms':
    case 'video':
    case 'series':
    case 'voice':
    case 'account':
      return { ...base, type: ApplicationCommandOptionType.String, autocomplete: true };
    default:
      return {
        ...base,
        type: ApplicationCommandOptionType.String,
        ...(o.maxLength !== undefined
          ? { max_length: Math.min(o.maxLength, DISCORD.stringOptionMaxLength) }
          : {}),
      };
  }
}

function subcommandOf(
  spec: CommandSpec,
  route: CommandRoute,
  describe: Describe,
): APIApplicationCommandSubcommandOption {
  const typed = new Set(route.options.values());
  const context = { describe, form: spec.form !== undefined };
  const options = spec.options.filter((o) => typed.has(o.name)).map((o) => optionOf(o, context));
  // Discord refuses an optional option before a required one; the stable sort keeps the core's order otherwise.
  options.sort((a, b) => Number(b.required === true) - Number(a.required === true));
  if (route.advanced.size > 0) {
    options.push({
      type: ApplicationCommandOptionType.String,
      name: MORE_OPTION,
      description: moreDescription(route.advanced),
      required: false,
      max_length: DISCORD.stringOptionMaxLength,
    });
  }
  return {
    type: ApplicationCommandOptionType.Subcommand,
    name: route.sub,
    description: clip(discordSummary(spec.summary) || spec.name, DISCORD.commandDescription),
    ...(options.length > 0 ? { options } : {}),
  };
}

/** The bulk-overwrite body registering `/reel`: one chat-input command holding every core command. */
export function buildCommandPayload(
  commands: readonly CommandSpec[],
  how: { fit: boolean } = { fit: true },
): [RESTPostAPIChatInputApplicationCommandsJSONBody, typeof MAKE_VIDEO_COMMAND_PAYLOAD] {
  const top: (APIApplicationCommandSubcommandOption | APIApplicationCommandSubcommandGroupOption)[] = [];
  const groups = new Map<string, APIApplicationCommandSubcommandGroupOption>();
  const names = new CommandNames(new CommandRoutes(commands));
  const describe: Describe = (text) => names.plain(text);
  for (const spec of commands) {
    const route = routeOf(spec);
    const sub = subcommandOf(spec, route, describe);
    if (!route.group) {
      top.push(sub);
      continue;
    }
    let group = groups.get(route.group);
    if (!group) {
      group = {
        type: ApplicationCommandOptionType.SubcommandGroup,
        name: route.group,
        description: clip(groupSummary(route.group), DISCORD.commandDescription),
        options: [],
      };
      groups.set(route.group, group);
      top.push(group);
    }
    group.options?.push(sub);
  }
  const command: RESTPostAPIChatInputApplicationCommandsJSONBody = {
    type: ApplicationCommandType.ChatInput,
    name: ROOT_COMMAND,
    description: ROOT_DESCRIPTION,
    contexts: [InteractionContextType.Guild, InteractionContextType.BotDM],
    options: top,
  };
  // `/reel create file:` (an attachment: its text is the script) and, beside /reel, the message command
  // "Make a video from this" (file-input.ts).
  const create = top.find((o) => o.name === 'create');
  if (create?.type === ApplicationCommandOptionType.Subcommand)
    create.options = [...(create.options ?? []), FILE_OPTION];
  if (how.fit) fitDescriptions(command);
  return [command, MAKE_VIDEO_COMMAND_PAYLOAD];
}

/** The payload before `fitDescriptions` would shorten anything: what the budget test measures. */
export function unfittedSize(commands: readonly CommandSpec[]): number {
  const [command] = buildCommandPayload(commands, { fit: false });
  return command ? commandSize(command) : 0;
}

/** Characters Discord counts against a command's 8000: names, descriptions, choice names and values. */
export function commandSize(command: {
  name: string;
  description: string;
  options?: readonly APIApplicationCommandOption[] | undefined;
}): number {
  const ofOption = (o: APIApplicationCommandOption): number => {
    let size = o.name.length + o.description.length;
    if ('choices' in o && o.choices) {
      for (const c of o.choices) size += c.name.length + String(c.value).length;
    }
    if ('options' in o && o.options) for (const child of o.options) size += ofOption(child);
    return size;
  };
  return (
    command.name.length +
    command.description.length +
    (command.options ?? []).reduce((s, o) => s + ofOption(o), 0)
  );
}

/**
 * Shortens option descriptions (longest first, never below 20 characters) until the command fits Discord's
 * total; the core's wording is kept whole whenever it fits.
 */
function fitDescriptions(command: RESTPostAPIChatInputApplicationCommandsJSONBody): void {
  const leaves: { description: string }[] = [];
  const walk = (options: readonly APIApplicationCommandOption[] | undefined) => {
    for (const o of options ?? []) {
      if (o.type === ApplicationCommandOptionType.Subcommand) {
        leaves.push(...((o.options ?? []) as { description: string }[]));
      } else if (o.type === ApplicationCommandOptionType.SubcommandGroup) walk(o.options);
    }
  };
  walk(command.options);
  for (let max = DISCORD.commandDescription; commandSize(command) > DISCORD.commandTotalChars; max -= 2) {
    if (max < 20)
      throw new Error(`/${command.name} does not fit Discord's ${DISCORD.commandTotalChars} characters`);
    for (const leaf of leaves) leaf.description = clip(leaf.description, max);
  }
}
