/**
 * Commands named as Discord members type them (`/reel account link`, not the core's `/reel link`): the
 * rewrite itself (code spans only, longest name first, arguments kept, prose and user values untouched), its
 * reach over cards, confirmations and forms, and the structure that keeps every payload going through the one
 * renderer that applies it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CommandNames } from '../../adapters/discord/command-names.js';
import { CommandRoutes } from '../../adapters/discord/commands.js';
import { AdapterMemory } from '../../adapters/discord/memory.js';
import { DiscordRenderer } from '../../adapters/discord/renderer.js';
import type { Card, Form } from '../../src/core/cards.js';
import { type CommandSpec, defineCommand, type OptionSpec } from '../../src/core/command-spec.js';
import { MODULES } from '../../src/core/commands/index.js';
import { code, literal, mention } from '../../src/core/text.js';
import { untilAborted } from '../support/test-clock.js';
import { type Json, textOfMessage } from './world.js';

const COMMANDS = MODULES.flatMap((m) => m.commands ?? []);
const routes = new CommandRoutes(COMMANDS);
const names = new CommandNames(routes);

const spec = (name: string, options: OptionSpec[] = []): CommandSpec =>
  defineCommand({
    name,
    summary: `Does ${name}`,
    options,
    examples: [],
    run: async () => ({ kind: 'none' }),
  });

describe('the rewrite of card markdown', () => {
  it('names every regrouped command by its Discord path, from the routes that register it', () => {
    for (const route of routes.all()) {
      const slash = routes.slashOf(route.command) as string;
      expect(names.markdown(`Run \`/reel ${route.command}\`.`)).toBe(`Run \`${slash}\`.`);
    }
    expect(names.markdown('Run `/reel link` to connect.')).toBe('Run `/reel account link` to connect.');
    expect(names.markdown('`/reel settings`, `/reel voices`, `/reel tz`')).toBe(
      '`/reel channel settings`, `/reel catalog voices`, `/reel account tz`',
    );
  });

  it('changes only the command path: arguments and flags stay as written', () => {
    expect(names.markdown('`/reel voices --language es`')).toBe('`/reel catalog voices --language es`');
    expect(names.markdown('`/reel settings approvers @name`')).toBe(
      '`/reel channel settings approvers @name`',
    );
    expect(names.markdown('`/reel subscribe series <name>`')).toBe('`/reel channel subscribe series <name>`');
    // `help`'s argument is a core name, which help on Discord accepts too (see the e2e test).
    expect(names.markdown('`/reel help link`')).toBe('`/reel help link`');
  });

  it('leaves the core’s own groups alone: `series create` and the other series commands', () => {
    const text = '`/reel series create "Night Terrors" --source ai_story` then `/reel series list`';
    expect(names.markdown(text)).toBe(text);
    expect(names.markdown('`series create`')).toBe('`series create`');
  });

  it('takes the longest name first: a longer unmoved name wins over a shorter moved one', () => {
    // `settings` alone moves to `channel settings`; a core group `settings role` stays where it is.
    const own = new CommandNames(
      new CommandRoutes([spec('settings'), spec('settings role'), spec('credits')]),
    );
    expect(own.markdown('`/reel settings role admin @x`')).toBe('`/reel settings role admin @x`');
    expect(own.markdown('`/reel settings threading off`')).toBe('`/reel channel settings threading off`');
    expect(own.markdown('`/reel settings`')).toBe('`/reel channel settings`');
  });

  it('rewrites inside code spans and blocks only; prose outside code is untouched', () => {
    expect(names.markdown('Type /reel link here, or `/reel link`.')).toBe(
      'Type /reel link here, or `/reel account link`.',
    );
    expect(names.markdown('```\n/reel link\n/reel voices --language es\n```')).toBe(
      '```\n/reel account link\n/reel catalog voices --language es\n```',
    );
    const prose = 'Run /reel link, /reel settings and /reel voices.';
    expect(names.markdown(prose)).toBe(prose);
  });

  it('matches whole words and whole paths only', () => {
    for (const text of [
      '`/reel linked`',
      '`/reel link-it`',
      '`x/reel link`',
      '`/reelx link`',
      '`/reel accounts2`',
      '`/reel account link`',
    ]) {
      expect(names.markdown(text)).toBe(text);
    }
    expect(names.markdown('`/reel accounts`')).toBe('`/reel catalog accounts`');
  });

  it('names a span holding just a regrouped command, as help and the scope lists do', () => {
    expect(names.markdown('• `link` — Link your team API key')).toBe(
      '• `account link` — Link your team API key',
    );
    expect(names.markdown('`voices`, `options`')).toBe('`catalog voices`, `catalog options`');
    // Only an exact name: a span that merely starts with one may be anything (a video named "link building").
    expect(names.markdown('No video matches `link building`.')).toBe('No video matches `link building`.');
    expect(names.markdown('`create`, `series list`')).toBe('`create`, `series list`');
  });

  it('keeps escapes, escaped backticks and mention tokens exactly as the core wrote them', () => {
    const user = mention('discord:G1:1300000000000000501');
    const text = `${literal('a `b` *c*')} ${user} ran \`/reel link\` on ${code('x_`y`')}`;
    const out = names.markdown(text);
    expect(out).toBe(text.replace('`/reel link`', '`/reel account link`'));
    // An escaped backtick starts no span: `\`/reel link\`` is prose.
    const escaped = '\\`/reel link\\` is prose';
    expect(names.markdown(escaped)).toBe(escaped);
  });

  it('is stable: naming twice changes nothing more', () => {
    const text = 'Run `/reel link`, `/reel settings role admin @x`, `voices` and `/reel series create`.';
    const once = names.markdown(text);
    expect(names.markdown(once)).toBe(once);
  });

  it('names titles that are a command, and `/reel` in plain text', () => {
    expect(names.title('/reel link')).toBe('/reel account link');
    expect(names.title('/reel series …')).toBe('/reel series …');
    expect(names.title('Link /reel link')).toBe('Link /reel link');
    expect(names.plain('In your time zone (change it with /reel tz).')).toBe(
      'In your time zone (change it with /reel account tz).',
    );
  });

  it('reads a Discord path back as the core’s name (help’s argument)', () => {
    expect(names.coreName('account link')).toBe('link');
    expect(names.coreName('/reel catalog voices')).toBe('voices');
    expect(names.coreName('Channel  Settings')).toBe('settings');
    expect(names.coreName('series create')).toBe('series create');
    expect(names.coreName('link')).toBe('link');
    expect(names.coreName('schedule')).toBe('schedule');
    expect(names.coreName('account')).toBe('account');
  });
});

describe('the renderer', () => {
  const memory = () => new AdapterMemory({ now: () => 0, sleep: async () => {}, timer: untilAborted });

  it('names commands in every text of a card, its controls and its confirmation', () => {
    const m = memory();
    const render = new DiscordRenderer(m, routes);
    const confirm = { title: 'Sure?', text: 'Then run `/reel unlink`.', confirm: 'Yes', deny: 'No' };
    const card: Card = {
      title: '/reel link',
      text: 'Run `/reel link` first.',
      progress: { percent: 10, label: 'see `/reel tz`' },
      fields: [{ label: '`/reel voices`', value: '`/reel voices --language es`' }],
      sections: [{ text: 'Try `/reel options`.', fields: [{ label: 'x', value: '`/reel accounts`' }] }],
      context: 'change it with `/reel settings threading off`',
      controls: [
        {
          kind: 'button',
          action: 'x.go',
          value: 'v1',
          label: 'Open /reel settings',
          confirm,
        },
        {
          kind: 'select',
          action: 'x.pick',
          placeholder: 'Pick (/reel voices)',
          options: [{ label: '/reel tz', value: '/reel tz', description: 'see /reel tz' }],
        },
      ],
    };
    const payload = render.card(card);
    const all = JSON.stringify(payload);
    expect(textOfMessage(payload as never)).toBe(
      [
        '/reel account link',
        'Run `/reel account link` first.\n\nsee `/reel account tz`',
        '`/reel catalog voices`: `/reel catalog voices --language es`',
        'Try `/reel catalog options`.',
        'x: `/reel catalog accounts`',
        // The footer is plain text: code markers dropped, the command still named.
        'change it with /reel channel settings threading off',
      ].join('\n'),
    );
    expect(all).toContain('"label":"Open /reel channel settings"');
    expect(all).toContain('"placeholder":"Pick (/reel catalog voices)"');
    // An option's value is data the core gets back: never rewritten.
    expect(all).toContain('"value":"/reel tz"');
    expect(all).toContain('"label":"/reel account tz"');
    // The confirmation kept for the click is the named one.
    expect(m.confirm('x.go', 'v1')?.text).toBe('Then run `/reel account unlink`.');
    const ask = render.confirm(confirm, { action: 'x.go', value: 'v1' });
    expect(ask.embeds[0]?.description).toBe('Then run `/reel account unlink`.');
  });

  it('names commands in forms (modal and launcher) but never in what the member typed', () => {
    const render = new DiscordRenderer(memory(), routes);
    const form: Form = {
      id: 'demo',
      title: 'Reschedule',
      submitLabel: 'Save',
      state: '',
      intro: 'Times are in your zone (`/reel tz`).',
      inputs: [
        {
          kind: 'text',
          id: 'when',
          label: 'When',
          hint: 'In your time zone, UTC (change it with /reel tz).',
          placeholder: 'e.g. friday 18:00',
          initial: 'run `/reel link` at /reel tz',
        },
      ],
    };
    const modal = render.modal(form, 'k1') as unknown as Json;
    const text = JSON.stringify(modal);
    expect(text).toContain('Times are in your zone (`/reel account tz`).');
    expect(text).toContain('(change it with /reel account tz).');
    expect(modal.components[1].component.value).toBe('run `/reel link` at /reel tz');
    const launcher = render.launcher(form, 'k2', { when: 'Set a zone first: `/reel tz Europe/Paris`.' });
    expect(launcher.embeds[0]?.description).toBe(
      '**When**: Set a zone first: `/reel account tz Europe/Paris`.',
    );
  });

  it('is the only caller of the render functions, so no payload skips the naming', () => {
    const dir = new URL('../../adapters/discord/', import.meta.url);
    const callers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) =>
        /\b(renderCard|renderModal|formLauncher|confirmPayload)\(/.test(
          readFileSync(new URL(f, dir), 'utf8').replace(/export function \w+\(/g, ''),
        ),
      );
    // render.ts and modal.ts define them (confirmPayload renders its card with renderCard).
    expect(callers.sort()).toEqual(['render.ts', 'renderer.ts']);
  });
});
