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
import type { CommandSpec, OptionSpec } from '../../src/core/command-spec.js';
import { splitName } from '../../src/core/command-spec.js';
import { CommandNames } from './command-names.js';
import { clip, DISCORD } from './limits.js';

export const ROOT_COMMAND = 'reel';
const ROOT_DESCRIPTION = 'Create, render, schedule and publish AI videos from this channel';

/** Discord-only groups for the commands a member runs once or rarely (see the file comment). */
const GROUPED: Readonly<Record<string, string>> = {
  link: 'account',
  unlink: 'account',
  whoami: 'account',
  tz: 'account',
  settings: 'channel',
  subscribe: 'channel',
  unsubscribe: 'channel',
  audit: 'channel',
  voices: 'catalog',
  options: 'catalog',
  accounts: 'catalog',
  asset: 'catalog',
};

/** Descriptions of the groups (the core's own groups have no summary of their own). */
const GROUP_DESCRIPTIONS: Readonly<Record<string, string>> = {
  account: 'Your API key link, identity and time zone',
  channel: "This channel's settings, subscriptions and audit log",
  catalog: 'Voices, accepted values, social accounts and media assets',
  series: 'Automated series: create, list, edit, pause, resume, generate, episodes',
};

/**
 * Options the core declares that must not become Discord options: `link`'s key goes through the private form
 * only (DESIGN §5), and a typed option would invite pasting it.
 */
const HIDDEN_OPTIONS: Readonly<Record<string, readonly string[]>> = { link: ['key'] };

/** Where a core command lives on Discord, and its option names there. */
export interface CommandRoute {
  command: string;
  group?: string;
  sub: string;
  /** Discord option name → core option name. */
  options: Map<string, string>;
  /** The core's positional options (their core names) in order, as text reads them. */
  positional: readonly string[];
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
  const hidden = HIDDEN_OPTIONS[spec.name] ?? [];
  const options = new Map(
    spec.options.filter((o) => !hidden.includes(o.name)).map((o) => [discordName(o.name), o.name]),
  );
  const discordGroup = group ?? GROUPED[sub];
  return {
    command: spec.name,
    ...(discordGroup ? { group: discordName(discordGroup) } : {}),
    sub: discordName(sub),
    options,
    positional: spec.options.filter((o) => o.positional && !hidden.includes(o.name)).map((o) => o.name),
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

/** Writes the command references of a description (`see /reel catalog options kind:styles`). */
type Describe = (text: string) => string;

function optionOf(o: OptionSpec, describe: Describe): APIApplicationCommandBasicOption {
  const base = {
    name: discordName(o.name),
    description: clip(describe(o.description).trim() || o.name, DISCORD.commandDescription),
    required: o.required === true,
  };
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
      // More choices than Discord lists: the core's suggestions filter them as the member types.
      if (choices.length > DISCORD.choicesPerOption || choices.length === 0) {
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
  const options = spec.options
    .filter((o) => [...route.options.values()].includes(o.name))
    .map((o) => optionOf(o, describe));
  // Discord refuses an optional option before a required one; the stable sort keeps the core's order otherwise.
  options.sort((a, b) => Number(b.required === true) - Number(a.required === true));
  return {
    type: ApplicationCommandOptionType.Subcommand,
    name: route.sub,
    description: clip(spec.summary.trim() || spec.name, DISCORD.commandDescription),
    ...(options.length > 0 ? { options } : {}),
  };
}

/** The bulk-overwrite body registering `/reel`: one chat-input command holding every core command. */
export function buildCommandPayload(
  commands: readonly CommandSpec[],
): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
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
        description: clip(GROUP_DESCRIPTIONS[route.group] ?? route.group, DISCORD.commandDescription),
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
  fitDescriptions(command);
  return [command];
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
