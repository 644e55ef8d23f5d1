/**
 * Commands named as Discord members type them (`/reel account link video:x`, not the core's `/reel link x`):
 * command tokens written in Discord's syntax (paths, option names, usage lines; escapes and mentions kept),
 * their reach over cards, confirmations and forms, and the structure that keeps every payload going through
 * the one renderer that applies it.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CommandNames } from '../../adapters/discord/command-names.js';
import { CommandRoutes } from '../../adapters/discord/commands.js';
import { AdapterMemory } from '../../adapters/discord/memory.js';
import { DiscordRenderer } from '../../adapters/discord/render.js';
import { MODULES } from '../../src/core/commands/index.js';
import type { CommandSpec } from '../../src/core/parse/command-spec.js';
import type { Card, Form } from '../../src/core/text/cards.js';
import { example, usage } from '../../src/core/text/command-usage.js';
import {
  command,
  commandName,
  flag,
  hole,
  literal,
  md,
  mention,
  toPlainText,
} from '../../src/core/text/text.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';
import { textOf } from './read-message.js';
import { type Json, textOfMessage } from './world.js';

const COMMANDS = MODULES.flatMap((m) => m.commands ?? []);
const routes = new CommandRoutes(COMMANDS);
const names = new CommandNames(routes);

describe('command tokens in Discord syntax', () => {
  it('names every command by its Discord path, from the routes that register it', () => {
    for (const route of routes.all()) {
      const slash = routes.slashOf(route.command) as string;
      expect(names.markdown(md`Run ${command(route.command)}.`)).toBe(`Run \`${slash}\`.`);
    }
    expect(names.markdown(md`Run ${command('link')} to connect.`)).toBe(
      'Run `/reel account link` to connect.',
    );
    expect(names.markdown(md`${commandName('link')}, ${commandName('series create')}`)).toBe(
      '`account link`, `series create`',
    );
  });

  it('writes arguments as Discord options: positional values by their option name, flags by theirs', () => {
    expect(names.markdown(command('voices', [], { language: 'es' }))).toBe(
      '`/reel catalog voices language:es`',
    );
    expect(names.markdown(command('publish', ['Launch teaser', 'youtube'], { account: 'Brand' }))).toBe(
      '`/reel publish video:Launch teaser platforms:youtube account:Brand`',
    );
    expect(names.markdown(command('subscribe', ['series', hole('name')]))).toBe(
      `\`/reel channel subscribe what:series series:${literal('<name>')}\``,
    );
    // Words past the last positional belong to it (a `rest` option).
    expect(names.markdown(command('settings', ['approvers', '@a', '@b']))).toBe(
      '`/reel channel settings key:approvers value:@a @b`',
    );
    // `help`'s argument names a command: its Discord path, which help reads back (coreName).
    expect(names.markdown(command('help', ['link']))).toBe('`/reel help command:account link`');
  });

  it('writes usage lines and options the way Discord’s client lists them', () => {
    const create = COMMANDS.find((c) => c.name === 'create') as CommandSpec;
    const rendered = names.markdown(usage(create));
    // `script` is optional: without it a form opens.
    expect(toPlainText(rendered)).toMatch(/^\/reel create \[script:<script>\] \[voice:<voice>\]/);
    expect(rendered).not.toContain('--');
    expect(names.markdown(flag('publish', 'account'))).toBe('`account:`');
    expect(names.markdown(example(create, 'create "A fox at dawn" --voice Aria'))).toBe(
      '`/reel create script:A fox at dawn voice:Aria`',
    );
  });

  it('keeps escapes and mention tokens exactly as the core wrote them; values cannot break out', () => {
    const text = md`${literal('**x**')} ${mention('discord:G1:U1')} ${command('status', ['a`b ⟧ ⟦/>x⟧'])}`;
    expect(names.markdown(text)).toBe(
      `${literal('**x**')} ${mention('discord:G1:U1')} \`${literal('/reel status video:a`b ⟧ ⟦/>x⟧')}\``,
    );
  });

  it('writes commands as words in titles and plain text (labels, hints)', () => {
    expect(names.title(command('link'))).toBe('/reel account link');
    expect(names.plain(`In your time zone (change it with ${command('tz')}).`)).toBe(
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
  const store = openStore({
    path: ':memory:',
    secretKey: randomBytes(32),
    clock: new TestClock(0),
  });
  afterAll(() => store.close());
  const memory = () => new AdapterMemory(store.interactions);

  it('names commands in every text of a card, its controls and its confirmation', async () => {
    const m = memory();
    const render = new DiscordRenderer(m, routes);
    const confirm = {
      title: md`Sure?`,
      text: md`Then run ${command('unlink')}.`,
      confirm: md`Yes`,
      deny: 'No',
    };
    const card: Card = {
      title: command('link'),
      text: md`Run ${command('link')} first.`,
      progress: { percent: 10, label: md`see ${command('tz')}` },
      fields: [{ label: command('voices'), value: command('voices', [], { language: 'es' }) }],
      sections: [
        { text: md`Try ${command('options')}.`, fields: [{ label: md`x`, value: command('accounts') }] },
      ],
      context: md`change it with ${command('settings', ['threading', 'off'])}`,
      controls: [
        {
          kind: 'button',
          action: 'x.go',
          value: 'v1',
          label: `Open ${command('settings')}`,
          confirm,
        },
        {
          kind: 'select',
          action: 'x.pick',
          placeholder: `Pick (${command('voices')})`,
          options: [{ label: command('tz'), value: '/reel tz', description: `see ${command('tz')}` }],
        },
      ],
    };
    const payload = await render.card(card);
    const all = JSON.stringify(payload);
    expect(textOfMessage(payload)).toBe(
      [
        '/reel account link',
        'Run `/reel account link` first.\n\nsee `/reel account tz`',
        '**`/reel catalog voices`**: `/reel catalog voices language:es`',
        'Try `/reel catalog options`.',
        '**x**: `/reel catalog accounts`',
        // The small print keeps its markdown: the command named as a code span.
        'change it with `/reel channel settings key:threading value:off`',
      ].join('\n'),
    );
    expect(all).toContain('"label":"Open /reel channel settings"');
    expect(all).toContain('"placeholder":"Pick (/reel catalog voices)"');
    // An option's value is data the core gets back: never rewritten.
    expect(all).toContain('"value":"/reel tz"');
    expect(all).toContain('"label":"/reel account tz"');
    // The confirmation kept for the click is the named one.
    expect((await m.confirm('x.go', 'v1'))?.text).toBe('Then run `/reel account unlink`.');
    const ask = await render.confirm(confirm, { action: 'x.go', value: 'v1' });
    expect(textOf(ask)).toBe('Sure?\nThen run `/reel account unlink`.');
  });

  it('names commands in forms (modal and launcher) but never in what the member typed', async () => {
    const render = new DiscordRenderer(memory(), routes);
    const form: Form = {
      id: 'demo',
      title: 'Reschedule',
      submitLabel: 'Save',
      state: '',
      intro: md`Times are in your zone (${command('tz')}).`,
      inputs: [
        {
          kind: 'text',
          id: 'when',
          label: 'When',
          hint: `In your time zone, UTC (change it with ${command('tz')}).`,
          placeholder: 'e.g. friday 18:00',
          initial: 'run `/reel link` at /reel tz',
        },
      ],
    };
    const modal = (await render.modal(form, 'k1')) as unknown as Json;
    const text = JSON.stringify(modal);
    expect(text).toContain('Times are in your zone (`/reel account tz`).');
    expect(text).toContain('(change it with /reel account tz).');
    expect(modal.components[1].component.value).toBe('run `/reel link` at /reel tz');
    const launcher = render.launcher(form, 'k2', {
      when: md`Set a zone first: ${command('tz', ['Europe/Paris'])}.`,
    });
    expect(textOf(launcher)).toContain('**When**: Set a zone first: `/reel account tz zone:Europe/Paris`.');
  });

  it('is the only caller of the render functions, so no payload skips the naming', () => {
    const dir = new URL('../../adapters/discord/', import.meta.url);
    const callers = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) =>
        /\b(renderCard|renderEmbedCard|renderModal|formLauncher|confirmPayload)\(/.test(
          readFileSync(new URL(f, dir), 'utf8').replace(/export function \w+\(/g, ''),
        ),
      );
    // components.ts and modal.ts define them (confirmPayload renders its card with renderCard).
    expect(callers.sort()).toEqual(['components.ts', 'render.ts']);
  });
});
