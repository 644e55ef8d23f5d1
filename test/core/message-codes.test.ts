/**
 * Every message code has a kind (`message-kinds.ts`) and wording (`messages.ts`) that renders. The type
 * `Record<MessageCode, MessageKind>` already refuses a code without a kind; this checks the words at run time.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGE_KINDS } from '../../src/core/message-kinds.js';
import { hasMessage, isInputMistake, type MessageCode, say } from '../../src/core/messages.js';

const CODES = Object.keys(MESSAGE_KINDS) as MessageCode[];

/** One value for every param name any wording reads. */
const SAMPLE: Record<string, string | number> = {
  ...Object.fromEntries(
    [
      'command',
      'suggestion',
      'group',
      'sub',
      'flag',
      'option',
      'value',
      'allowed',
      'when',
      'ref',
      'matches',
      'kind',
      'platform',
      'language',
      'model',
      'who',
      'name',
      'status',
      'id',
      'where',
      'title',
      'errors',
      'what',
      'reason',
      'pages',
      'key',
      'expected',
      'requires',
      'field',
      'to',
      'from',
      'state',
      'approvers',
      'message',
      'scope',
      'type',
      'filename',
      'accept',
      'link',
      'latest',
      'suggestion',
      'first',
      'second',
      'lost',
      'role',
    ].map((name) => [name, `sample-${name}`]),
  ),
  ...{ at: 3, min: 1, max: 9, length: 12, minutes: 15, percent: 40, page: 2, count: 2, days: 40 },
  ...{ cost: 20, balance: 5, retryAfter: 30, ref: 'abc12345', cap: 6 },
};

describe('message codes', () => {
  it('knows some codes', () => {
    expect(CODES.length).toBeGreaterThan(100);
  });

  it.each(CODES)('%s has a kind and wording that renders', (code) => {
    expect(['input', 'state', 'failure']).toContain(MESSAGE_KINDS[code]);
    expect(hasMessage(code)).toBe(true);
    const full = say(code, SAMPLE);
    expect(full).not.toBe(`Something went wrong (${code}).`);
    expect(full.trim()).not.toBe('');
    expect(full).not.toMatch(/undefined|NaN|\[object/);
    expect(() => say(code)).not.toThrow();
  });

  it('answers usage for typing mistakes only', () => {
    expect(CODES.filter(isInputMistake)).toContain('bad-choice');
    expect(CODES.filter(isInputMistake)).not.toContain('not-found-video');
    expect(isInputMistake('internal')).toBe(false);
  });

  it('has no wording outside the codes', () => {
    expect(hasMessage('no-such-code')).toBe(false);
    expect(hasMessage('toString')).toBe(false);
  });
});
