/**
 * Every message code has a kind (`message-kinds.ts`) and wording (`messages.ts`) that renders. The type
 * `Record<MessageCode, MessageKind>` already refuses a code without a kind; this checks the words at run time.
 */
import { describe, expect, it } from 'vitest';
import { MESSAGE_KINDS } from '../../src/core/text/message-kinds.js';
import { hasMessage, isInputMistake, type MessageCode, say } from '../../src/core/text/messages.js';
import { MESSAGE_PARAMS } from '../support/message-params.js';

const CODES = Object.keys(MESSAGE_KINDS) as MessageCode[];

describe('message codes', () => {
  it('knows some codes', () => {
    expect(CODES.length).toBeGreaterThan(100);
  });

  it.each(CODES)('%s has a kind and wording that renders', (code) => {
    expect(['input', 'state', 'failure']).toContain(MESSAGE_KINDS[code]);
    expect(hasMessage(code)).toBe(true);
    const full = say(code, MESSAGE_PARAMS);
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
