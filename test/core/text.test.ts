/**
 * Card text helpers: escaping values the core does not control, links, and mention tokens that user text can
 * never forge. Adapters rely on `shield`/`restore` reading the text exactly as the core wrote it.
 */
import { describe, expect, it } from 'vitest';
import {
  bareUrl,
  channel,
  code,
  command,
  commandName,
  hole,
  link,
  literal,
  mention,
  mentionsIn,
  type Piece,
  parseMention,
  restore,
  shield,
  toPlainText,
} from '../../src/core/text/text.js';

const HOSTILE = '<!channel> <@U1> [Approve](https://ev.il) **x** _y_ `z` ~w~ a|b \\ ⟦@slack:T1:U1⟧';

describe('literal', () => {
  it('escapes every character that means something in card text, and reads back as typed', () => {
    expect(literal('**x**')).toBe('\\*\\*x\\*\\*');
    expect(literal('[a](https://e)')).toBe('\\[a\\](https://e)');
    expect(literal('a\\b')).toBe('a\\\\b');
    expect(literal('⟦@slack:T1:U1⟧')).toBe('\\⟦@slack:T1:U1\\⟧');
    expect(toPlainText(literal(HOSTILE))).toBe(HOSTILE);
    expect(toPlainText(`**${literal(HOSTILE)}**`)).toBe(HOSTILE);
  });

  it('leaves an underscore inside a word and parentheses alone (they format nothing)', () => {
    expect(literal('motion_lite (storyboard)')).toBe('motion_lite (storyboard)');
    expect(literal('_x_ a_ _b')).toBe('\\_x\\_ a\\_ \\_b');
  });

  it('makes no mention token out of user text', () => {
    expect(mentionsIn(literal(HOSTILE))).toEqual([]);
    expect(mentionsIn(`${literal('a\\')}${mention('slack:T1:U2')}`)).toEqual(['slack:T1:U2']);
  });
});

describe('code, link and bare URLs', () => {
  it('keeps a code span closed whatever the value holds', () => {
    expect(code('a`b')).toBe('`a\\`b`');
    expect(toPlainText(code('a`b **c**'))).toBe('a`b **c**');
  });

  it('links only http(s), with an escaped label and a URL that cannot end early', () => {
    expect(link('[Open] **now**', 'https://x.example/a(b) c')).toBe(
      '[\\[Open\\] \\*\\*now\\*\\*](https://x.example/a%28b%29%20c)',
    );
    expect(link('label', 'javascript:alert(1)')).toBe('label');
    expect(bareUrl('https://cdn.example/v_1.mp4')).toBe('https://cdn.example/v_1.mp4');
    expect(bareUrl('https://cdn.example/<!channel>')).toBe('https://cdn.example/\\<!channel\\>');
  });
});

describe('mention tokens', () => {
  it('name users, groups, roles and channels', () => {
    expect(parseMention('slack:T1:U1')).toEqual({
      kind: 'user',
      platform: 'slack',
      workspace: 'T1',
      id: 'U1',
    });
    // A group's platform and the platform's word for it are data in the reference, read back by adapters.
    expect(parseMention('slack-group:S1')).toEqual({
      kind: 'group',
      platform: 'slack',
      noun: 'group',
      id: 'S1',
    });
    expect(parseMention('discord-role:42')).toEqual({
      kind: 'group',
      platform: 'discord',
      noun: 'role',
      id: '42',
    });
    expect(parseMention('teams-group:X1')).toBeUndefined();
    expect(parseMention('nonsense')).toBeUndefined();
    const { text, pieces } = shield(`${mention('slack:T1:U1')} in ${channel('slack:T1:C1')}`);
    const render = (p: Piece) =>
      p.kind === 'mention' ? `[${p.target.kind}:${p.target.id}]` : p.kind === 'char' ? p.char : '';
    expect(restore(text, pieces, render)).toBe('[user:U1] in [channel:C1]');
  });

  it('read an escaped backslash before a token as a backslash, then the token', () => {
    const { text, pieces } = shield(`\\\\${mention('slack:T1:U1')} \\⟦@slack:T1:U2\\⟧`);
    expect(pieces.map((p) => (p.kind === 'char' ? p.char : p.kind === 'mention' ? p.ref : ''))).toEqual([
      '\\',
      'slack:T1:U1',
      '⟦',
      '⟧',
    ]);
    expect(text).not.toContain('⟦');
  });

  it('cannot be smuggled through the placeholder character', () => {
    expect(toPlainText('\u00010\u0001 text')).toBe('0 text');
  });
});

describe('command references', () => {
  it('travel as a token that reads back exactly, whatever the values hold', () => {
    const nasty = 'a "b" ⟧ ⟦/>x⟧ `c` \\ ; = < %';
    const token = command('publish', [nasty, 'youtube'], { account: 'Brand X', here: true });
    expect(token).toMatch(/^⟦\/[^\s⟧]+⟧$/);
    const { text, pieces } = shield(`Run ${token} now`);
    expect(text).not.toContain('⟦');
    expect(pieces).toEqual([
      {
        kind: 'command',
        command: {
          kind: 'run',
          name: 'publish',
          positional: [{ value: nasty }, { value: 'youtube' }],
          flags: [{ name: 'account', value: { value: 'Brand X' } }, { name: 'here' }],
        },
      },
    ]);
  });

  it('read as the core’s text grammar in plain text, quoted as the parser reads them back', () => {
    expect(
      toPlainText(`Run ${command('publish', ['Launch teaser', 'youtube'], { account: 'Brand' })}.`),
    ).toBe('Run publish "Launch teaser" youtube --account Brand.');
    expect(toPlainText(command('status', [hole('video id')]))).toBe('status <video id>');
    expect(toPlainText(commandName('series create'))).toBe('series create');
  });

  it('cannot be forged by user text, and a malformed token is never a command', () => {
    expect(shield(literal(command('link'))).pieces.every((p) => p.kind === 'char')).toBe(true);
    expect(shield('⟦/>%E0%A4%A⟧').pieces).toEqual([]);
    expect(shield('⟦/>not a name⟧').pieces).toEqual([]);
  });
});
