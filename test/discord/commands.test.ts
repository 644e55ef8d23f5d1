/**
 * The `/reel` registration payload against Discord's limits (checked by `discord-rules.ts`, written apart
 * from the adapter): names, descriptions, option and subcommand counts, required before optional, total
 * size; the option kinds' mapping; and every core command reachable at exactly one Discord path.
 */
import { ApplicationCommandOptionType as T } from 'discord.js';
import { describe, expect, it } from 'vitest';
import {
  buildCommandPayload,
  CommandRoutes,
  commandSize,
  discordName,
} from '../../adapters/discord/commands.js';
import { type CommandSpec, defineCommand, type OptionSpec } from '../../src/core/command-spec.js';
import { MODULES } from '../../src/core/commands/index.js';
import { commandChars, commandProblems } from './discord-rules.js';
import type { Json } from './world.js';

const COMMANDS = MODULES.flatMap((m) => m.commands ?? []);
const [reel] = buildCommandPayload(COMMANDS) as unknown as Json[];

function leaves(node: Json, path: string[] = []): { path: string[]; node: Json }[] {
  return (node.options ?? []).flatMap((o: Json) =>
    o.type === T.Subcommand
      ? [{ path: [...path, o.name], node: o }]
      : o.type === T.SubcommandGroup
        ? leaves(o, [...path, o.name])
        : [],
  );
}

describe('the /reel payload', () => {
  it('is one chat-input command Discord accepts', () => {
    expect(reel).toMatchObject({ name: 'reel', type: 1 });
    expect(commandProblems(reel as Json)).toEqual([]);
    expect(commandChars(reel as Json)).toBe(commandSize(reel as never));
    expect(commandChars(reel as Json)).toBeLessThanOrEqual(8000);
  });

  it('holds at most 25 entries per level and 25 options per subcommand, required ones first', () => {
    expect(reel?.options.length).toBeLessThanOrEqual(25);
    for (const group of reel?.options.filter((o: Json) => o.type === T.SubcommandGroup) ?? []) {
      expect(group.options.length).toBeLessThanOrEqual(25);
    }
    for (const { path, node } of leaves(reel as Json)) {
      const options: Json[] = node.options ?? [];
      expect(options.length, path.join(' ')).toBeLessThanOrEqual(25);
      const firstOptional = options.findIndex((o) => !o.required);
      if (firstOptional >= 0)
        expect(
          options.slice(firstOptional).every((o) => !o.required),
          path.join(' '),
        ).toBe(true);
      for (const o of options) {
        expect(o.name).toMatch(/^[-_\p{L}\p{N}]{1,32}$/u);
        expect(o.name).toBe(o.name.toLowerCase());
        expect(o.description.length).toBeGreaterThan(0);
        expect(o.description.length).toBeLessThanOrEqual(100);
      }
    }
  });

  it('reaches every core command at exactly one path, and back', () => {
    const routes = new CommandRoutes(COMMANDS);
    const paths = leaves(reel as Json).map((l) => l.path);
    expect(paths).toHaveLength(COMMANDS.length);
    const names = paths.map(
      (p) =>
        (p.length === 2 ? routes.find(p[0], p[1] as string) : routes.find(undefined, p[0] as string))
          ?.command,
    );
    expect(names.sort()).toEqual(COMMANDS.map((c) => c.name).sort());
    expect(routes.slashOf('series create')).toBe('/reel series create');
    expect(routes.slashOf('create')).toBe('/reel create');
    expect(routes.slashOf('link')).toBe('/reel account link');
  });

  it('maps option kinds to Discord types', () => {
    const byPath = new Map(leaves(reel as Json).map((l) => [l.path.join(' '), l.node]));
    const option = (path: string, name: string): Json =>
      (byPath.get(path)?.options ?? []).find((o: Json) => o.name === name);
    expect(option('videos', 'page')).toMatchObject({ type: T.Integer });
    expect(option('videos', 'archived')).toMatchObject({ type: T.Boolean });
    expect(option('render', 'codec')).toMatchObject({
      type: T.String,
      choices: [
        { name: 'h264', value: 'h264' },
        { name: 'vp8', value: 'vp8' },
      ],
    });
    for (const [path, name] of [
      ['show', 'video'],
      ['series show', 'series'],
      ['create', 'voice'],
      ['publish', 'account'],
    ]) {
      expect(option(path as string, name as string), `${path} ${name}`).toMatchObject({
        type: T.String,
        autocomplete: true,
      });
      expect(option(path as string, name as string).choices).toBeUndefined();
    }
    expect(option('schedule', 'when')).toMatchObject({ type: T.String, required: true });
    expect(option('caption', 'url')).toMatchObject({ type: T.String, required: true });
    // The API key travels through the private form only: no option invites pasting it.
    expect(byPath.get('account link')?.options).toBeUndefined();
  });
});

describe('building from other declarations', () => {
  const spec = (name: string, options: OptionSpec[] = [], summary = `Does ${name}`): CommandSpec =>
    defineCommand({ name, summary, options, examples: [], run: async () => ({ kind: 'none' }) });

  it('puts required options first and maps ranges, lengths and long choice lists', () => {
    const [command] = buildCommandPayload([
      spec('demo', [
        { name: 'size', kind: 'int', description: 'How many', min: 1, max: 9 },
        { name: 'Target Name', kind: 'string', description: 'Target', required: true, maxLength: 9000 },
        {
          name: 'mood',
          kind: 'choice',
          description: 'Mood',
          choices: Array.from({ length: 30 }, (_, i) => `m${i}`),
        },
      ]),
    ]) as unknown as Json[];
    const options = command?.options[0].options as Json[];
    expect(options.map((o) => o.name)).toEqual(['target-name', 'size', 'mood']);
    expect(options[0]).toMatchObject({ required: true, max_length: 6000 });
    expect(options[1]).toMatchObject({ type: T.Integer, min_value: 1, max_value: 9 });
    expect(options[2]).toMatchObject({ type: T.String, autocomplete: true });
    expect(
      new CommandRoutes([spec('demo', [{ name: 'Target Name', kind: 'string', description: 'x' }])])
        .find(undefined, 'demo')
        ?.options.get('target-name'),
    ).toBe('Target Name');
  });

  it('shortens option descriptions, never the names, to stay under 8000 characters', () => {
    const wordy =
      'A long explanation of this option that goes on and on to fill the hundred characters allowed.';
    const many = Array.from({ length: 20 }, (_, i) =>
      spec(
        `cmd${i}`,
        Array.from({ length: 5 }, (_, j) => ({
          name: `option${j}`,
          kind: 'string' as const,
          description: wordy,
        })),
      ),
    );
    const [command] = buildCommandPayload(many) as unknown as Json[];
    expect(commandProblems(command as Json)).toEqual([]);
    expect(commandChars(command as Json)).toBeLessThanOrEqual(8000);
    const first = command?.options[0].options[0] as Json;
    expect(first.name).toBe('option0');
    expect(first.description.length).toBeLessThan(wordy.length);
    expect(first.description.endsWith('…')).toBe(true);
  });

  it('cleans names Discord would refuse', () => {
    expect(discordName('Spend Threshold')).toBe('spend-threshold');
    expect(discordName('--weird__name!!')).toBe('weird__name');
    expect(discordName('x'.repeat(40))).toHaveLength(32);
  });
});
