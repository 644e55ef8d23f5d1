/**
 * `help [command]`: the overview of every command, grouped the way a team thinks of them, or one command's
 * usage, options and examples. The command list comes from `commands/index.ts`, imported when help runs:
 * that module imports this one, so a static import would be a cycle evaluated before MODULES exists.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import {
  type CommandModule,
  type CommandSpec,
  defineCommand,
  type OptionSpec,
} from '../../parse/command-spec.js';
import { suggest } from '../../parse/parse-command.js';
import { StoredKeyUnreadableError } from '../../ports/index.js';
import type { Card, Section } from '../../text/cards.js';
import { message, type Response } from '../../text/cards.js';
import { example, optionRef, usage } from '../../text/command-usage.js';
import {
  type CardText,
  command,
  commandName,
  hole,
  joinText,
  literal,
  md,
  specWording,
} from '../../text/text.js';

/** Account-module commands about the channel rather than the team. */
const CHANNEL_COMMANDS = new Set(['subscribe', 'unsubscribe', 'settings', 'tz', 'notify', 'help']);

interface HelpSection {
  title: string;
  commands: CommandSpec[];
}

export const helpCommand: CommandSpec = defineCommand({
  name: 'help',
  summary: 'List the commands, or show how to use one',
  options: [
    {
      name: 'command',
      kind: 'string',
      positional: true,
      rest: true,
      description: 'A command or group, e.g. `schedule` or `series`',
      maxLength: 60,
    },
  ],
  examples: ['help', 'help schedule', 'help series'],
  async run(ctx, args): Promise<Response> {
    const sections = await helpSections();
    const all = sections.flatMap((s) => s.commands);
    if (!args.command) return message(await overviewCard(ctx, sections));

    const wanted = args.command
      .trim()
      .toLowerCase()
      .replace(/^\/?reel\s+/, '')
      .replace(/\s+/g, ' ');
    const spec = all.find((c) => c.name === wanted);
    if (spec) return message(commandCard(spec));
    const group = all.filter((c) => c.name.startsWith(`${wanted} `));
    if (group.length > 0) return message(groupCard(wanted, group));
    const section = sections.find((s) => s.title.toLowerCase() === wanted);
    if (section) return message(groupCard(section.title, section.commands));

    const names = [...new Set(all.map((c) => c.name.split(' ')[0] as string))];
    const guess = suggest(wanted.split(' ')[0] ?? wanted, names);
    throw userError('unknown-command', {
      command: wanted,
      ...(guess ? { suggestion: `help ${guess}` } : {}),
    });
  },
});

/** The sections never change while running: built once (the imports cost ~0.5 ms a call under tsx). */
let sectionsOnce: Promise<HelpSection[]> | undefined;
function helpSections(): Promise<HelpSection[]> {
  sectionsOnce ??= buildSections();
  return sectionsOnce;
}

async function buildSections(): Promise<HelpSection[]> {
  const [{ MODULES }, videos, publishing, series, account, audit, approvals] = await Promise.all([
    import('../index.js'),
    import('../videos/index.js'),
    import('../publishing/index.js'),
    import('../series/index.js'),
    import('./index.js'),
    import('../audit/index.js'),
    import('../approvals/index.js'),
  ]);
  const named = new Map<CommandModule, string>([
    [videos.videosModule, 'Videos'],
    [publishing.publishingModule, 'Publishing'],
    [series.seriesModule, 'Series'],
    [audit.auditModule, 'Channel'],
    // Approving is part of publishing: the inbox sits beside publish and schedule.
    [approvals.inboxModule, 'Publishing'],
  ]);
  const sections: HelpSection[] = ['Videos', 'Publishing', 'Series', 'Team & catalog', 'Channel', 'More'].map(
    (title) => ({ title, commands: [] }),
  );
  const add = (title: string, spec: CommandSpec) =>
    sections.find((s) => s.title === title)?.commands.push(spec);
  for (const module of MODULES) {
    for (const spec of module.commands ?? []) {
      if (module === account.accountModule)
        add(CHANNEL_COMMANDS.has(spec.name) ? 'Channel' : 'Team & catalog', spec);
      else add(named.get(module) ?? 'More', spec);
    }
  }
  return sections.filter((s) => s.commands.length > 0);
}

async function overviewCard(ctx: CommandContext, sections: HelpSection[]): Promise<Card> {
  const body: Section[] = sections.map((s) => ({
    text: md`**${specWording(s.title)}**\n${joinText(
      s.commands.map((c) => md`• ${commandName(c.name)} — ${specWording(c.summary)}`),
      '\n',
    )}`,
  }));
  return {
    title: md`reelbot commands`,
    tone: 'info',
    text: (await hasKey(ctx))
      ? md`Write a script, watch it generate, pick a thumbnail, render, schedule — from this channel.`
      : md`**Start here:** ${command('link')} connects your team (a private form opens for your API key).`,
    sections: body,
    context: md`${command('help', [hole('command')])} shows usage and examples · videos and series take an id, a name prefix or \`last\``,
  };
}

function commandCard(spec: CommandSpec): Card {
  // Hidden options exist only to catch a mistake (`link <pasted key>`); help must not suggest them.
  const options = spec.options.filter((o) => !o.hidden);
  // Rarely used options come after the everyday ones (on Discord they go in the command's `more` text).
  const everyday = options.filter((o) => !o.advanced);
  const advanced = options.filter((o) => o.advanced);
  const fields = [{ label: md`Usage`, value: usage(spec) }];
  if (everyday.length > 0) {
    fields.push({
      label: md`Options`,
      value: joinText(
        everyday.map((o) => optionLine(spec, o)),
        '\n',
      ),
    });
  }
  if (advanced.length > 0) {
    fields.push({
      label: everyday.length > 0 ? md`More options` : md`Options`,
      value: joinText(
        advanced.map((o) => optionLine(spec, o)),
        '\n',
      ),
    });
  }
  if (spec.examples.length > 0) {
    fields.push({
      label: md`Examples`,
      value: joinText(
        spec.examples.map((e) => example(spec, e)),
        '\n',
      ),
    });
  }
  return {
    title: command(spec.name),
    tone: 'info',
    text: spec.details
      ? md`${specWording(spec.summary)}.\n${spec.details}`
      : md`${specWording(spec.summary)}.`,
    fields,
  };
}

function optionLine(spec: CommandSpec, o: OptionSpec): CardText {
  const facts: CardText[] = [];
  if (o.required) facts.push(md`required`);
  if (o.choices) facts.push(md`one of ${specWording(o.choices.join(', '))}`);
  if (o.kind === 'video' || o.kind === 'series') facts.push(md`id, name prefix or \`last\``);
  if (o.kind === 'int' && (o.min !== undefined || o.max !== undefined))
    facts.push(md`${o.min ?? md``}–${o.max ?? md``}`);
  if (o.maxLength !== undefined) facts.push(md`max ${o.maxLength} characters`);
  // A catalog the description does not already point at: where its values are listed.
  if (o.catalog && !o.description.includes(o.catalog))
    facts.push(md`values: ${command('options', [o.catalog])}`);
  return md`• ${optionRef(spec, o)} — ${specWording(o.description)}${facts.length > 0 ? md` (${joinText(facts, '; ')})` : md``}`;
}

function groupCard(group: string, commands: CommandSpec[]): Card {
  return {
    // A group of commands (`series`), or one of the overview's sections (`Team & catalog`).
    title: commands.every((c) => c.name.startsWith(`${group} `))
      ? md`${command(group)} …`
      : md`${literal(group)} …`,
    tone: 'info',
    text: joinText(
      commands.map((c) => md`• ${usage(c)}\n  ${specWording(c.summary)}`),
      '\n',
    ),
    context: md`${command('help', [commands[0]?.name ?? group])} shows one command's options and examples.`,
  };
}

async function hasKey(ctx: CommandContext): Promise<boolean> {
  if (ctx.deps.deploymentKey) return true;
  try {
    return (await ctx.deps.store.keys.get(ctx.req.user)) !== undefined;
  } catch (error) {
    if (error instanceof StoredKeyUnreadableError) return false;
    throw error;
  }
}
