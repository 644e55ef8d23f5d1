/**
 * The `/reel` registration payload against Discord's limits (checked by `discord-rules.ts`, written apart
 * from the adapter): names, descriptions, option and subcommand counts, required before optional, total
 * size; the option kinds' mapping; and every core command reachable at exactly one Discord path.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApplicationCommandOptionType as T } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { CommandNames } from '../../adapters/discord/command-names.js';
import {
  buildCommandPayload,
  COMMAND_BUDGET,
  CommandRoutes,
  commandSize,
  discordName,
  flagsOf,
  unfittedSize,
} from '../../adapters/discord/commands.js';
import { MODULES } from '../../src/core/commands/index.js';
import { groupSummary } from '../../src/core/parse/command-groups.js';
import { type CommandSpec, defineCommand, type OptionSpec } from '../../src/core/parse/command-spec.js';
import { command as commandRef, flag } from '../../src/core/text/text.js';
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
    expect(commandChars(reel as Json)).toBeLessThanOrEqual(COMMAND_BUDGET);
  });

  it(`stays within its budget of ${COMMAND_BUDGET} characters before any description is shortened`, () => {
    expect(COMMAND_BUDGET).toBe(6500);
    // Measured before `fitDescriptions` could cut anything, so shortening can never hide growth...
    expect(unfittedSize(COMMANDS)).toBeLessThanOrEqual(COMMAND_BUDGET);
    // ...and indeed nothing was cut: the registered payload is the unshortened one.
    expect(buildCommandPayload(COMMANDS)).toEqual(buildCommandPayload(COMMANDS, { fit: false }));
    expect(commandChars(reel as Json)).toBe(unfittedSize(COMMANDS));
  });

  it('measures growth: typed options count, advanced ones cost nothing past the one `more` option', () => {
    const grown = (extra: OptionSpec[]) =>
      COMMANDS.map((c) => (c.name === 'series create' ? { ...c, options: [...c.options, ...extra] } : c));
    const twelve = (advanced: boolean) =>
      Array.from({ length: 12 }, (_, i) => ({
        name: `extra-setting-${i}`,
        kind: 'string' as const,
        advanced,
        description: 'A setting added later, described in a plain sentence of some length',
      }));
    // Twelve more advanced options: not one character more.
    expect(unfittedSize(grown(twelve(true)))).toBe(unfittedSize(COMMANDS));
    expect(unfittedSize(grown(twelve(true)))).toBeLessThanOrEqual(COMMAND_BUDGET);
    // The same twelve typed would be counted, and push /reel past its budget: the test above would fail.
    expect(unfittedSize(grown(twelve(false)))).toBeGreaterThan(COMMAND_BUDGET);
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

  it("describes each subcommand group in the core's words", () => {
    const groups = ((reel as Json).options as Json[]).filter((o) => o.type === T.SubcommandGroup);
    expect(groups.map((g) => g.name).sort()).toEqual(['account', 'catalog', 'channel', 'series']);
    for (const group of groups) expect(group.description).toBe(groupSummary(group.name));
    // The words are the core's alone: no adapter keeps a copy of them.
    const adapterFiles = readdirSync('adapters', { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => readFileSync(join('adapters', f), 'utf8'));
    const copies = groups.filter((g) => adapterFiles.some((text) => text.includes(groupSummary(g.name))));
    expect(copies.map((g) => g.name)).toEqual([]);
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
    // `schedule` has a form: nothing is required on Discord, the form asks for what is missing.
    expect(option('schedule', 'when')).toMatchObject({ type: T.String, required: false });
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

  it('leaves out every option the core marks secret, whichever command declares it', () => {
    const vault = spec('vault', [
      { name: 'label', kind: 'string', description: 'Label' },
      { name: 'token', kind: 'string', description: 'Pasted only in a private form', secret: true },
    ]);
    const [command] = buildCommandPayload([vault]) as unknown as Json[];
    expect(((command as Json).options[0].options as Json[]).map((o) => o.name)).toEqual(['label']);
    expect([...(new CommandRoutes([vault]).find(undefined, 'vault')?.options.values() ?? [])]).toEqual([
      'label',
    ]);
  });

  it('cleans names Discord would refuse', () => {
    expect(discordName('Spend Threshold')).toBe('spend-threshold');
    expect(discordName('--weird__name!!')).toBe('weird__name');
    expect(discordName('x'.repeat(40))).toHaveLength(32);
  });
});

describe('native options', () => {
  const byPath = new Map(leaves(reel as Json).map((l) => [l.path.join(' '), l.node]));
  const options = (path: string): Json[] => byPath.get(path)?.options ?? [];
  const option = (path: string, name: string): Json | undefined => options(path).find((o) => o.name === name);
  const PLATFORM_CHOICES = ['youtube', 'tiktok', 'instagram', 'x', 'facebook', 'linkedin', 'threads'];

  it('offers the seven platforms as choices wherever one platform is asked', () => {
    for (const [path, name] of [
      ['meta', 'platform'],
      ['series create', 'destination'],
      ['series edit', 'destination'],
    ] as const) {
      const o = option(path, name);
      expect(
        o?.choices?.map((c: Json) => c.value),
        `${path} ${name}`,
      ).toEqual(PLATFORM_CHOICES);
      expect(o?.autocomplete, `${path} ${name}`).toBeUndefined();
    }
    // Several platforms are one text (`youtube,tiktok` or `all`): suggested while typing.
    expect(option('schedule', 'platforms')).toMatchObject({ autocomplete: true });
    expect(option('publish', 'platforms')).toMatchObject({ autocomplete: true });
  });

  it('suggests catalog values while typing', () => {
    for (const [path, name] of [
      ['series create', 'source'],
      ['series create', 'niche'],
      ['series create', 'style'],
      ['series create', 'language'],
      ['series edit', 'source'],
      ['create', 'style'],
      ['create', 'language'],
      ['caption', 'language'],
    ] as const) {
      expect(option(path, name), `${path} ${name}`).toMatchObject({ type: T.String, autocomplete: true });
      // The catalog pointer of the text help is left out: the suggestions are the catalog.
      expect(option(path, name)?.description, `${path} ${name}`).not.toMatch(/catalog options/);
    }
    expect(
      COMMANDS.find((c) => c.name === 'series create')?.options.find((o) => o.name === 'source'),
    ).toMatchObject({ catalog: 'sources' });
  });

  it('registers nothing as required on a command with a form, so the command alone opens it', () => {
    expect(option('series create', 'name')).toMatchObject({ required: false });
    expect(option('series create', 'source')).toMatchObject({ required: false });
    expect(options('create').every((o) => o.required !== true)).toBe(true);
    // Without a form, required stays required.
    expect(option('show', 'video')).toMatchObject({ required: true });
  });

  it('types advanced options as flags in one `more` option, and keeps daily ones typed', () => {
    const series = options('series create').map((o) => o.name);
    for (const daily of ['name', 'source', 'niche', 'voice', 'style', 'schedule', 'destination'])
      expect(series).toContain(daily);
    for (const rare of ['mood', 'captions', 'hashtags', 'tone', 'privacy', 'prompt', 'subreddit', 'accounts'])
      expect(series).not.toContain(rare);
    expect(option('series create', 'more')).toMatchObject({
      type: T.String,
      description: 'More settings as flags, e.g. --tone funny',
    });
    expect(option('series create', 'more')?.required).toBe(false);
    // The example is a flag of the command's own.
    expect(option('create', 'more')?.description).toBe('More settings as flags, e.g. --master-style');
    // A command without advanced options has no `more`.
    expect(option('show', 'more')).toBeUndefined();
  });

  it('reads `more` with the core’s parser: flags only', () => {
    const spec = COMMANDS.find((c) => c.name === 'series create') as CommandSpec;
    expect(flagsOf(spec, '--tone funny --privacy unlisted --hashtags "#a #b" --thumbnails')).toEqual({
      ok: true,
      value: { tone: 'funny', privacy: 'unlisted', hashtags: '#a #b', thumbnails: true },
    });
    const unknown = flagsOf(spec, '--tne funny');
    expect(unknown.ok || unknown.error.code).toBe('unknown-flag');
    const stray = flagsOf(spec, 'funny --tone x');
    expect(stray.ok || stray.error.code).toBe('extra-arg');
    const missing = flagsOf(spec, '--tone');
    expect(missing.ok || missing.error.code).toBe('missing-flag-value');
  });

  it('writes advanced options in help as `more:` flags', () => {
    const names = new CommandNames(new CommandRoutes(COMMANDS));
    expect(names.markdown(flag('series create', 'tone'))).toBe('`more:--tone`');
    expect(names.markdown(commandRef('series edit', ['Night'], { tone: 'very calm', niche: 'x' }))).toBe(
      '`/reel series edit series:Night niche:x more:--tone "very calm"`',
    );
  });
});
