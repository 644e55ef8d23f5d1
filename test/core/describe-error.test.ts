import { describe, expect, it } from 'vitest';
import { describeError, errorMessage } from '../../src/core/dispatch/describe-error.js';

describe('describeError', () => {
  it('keeps only name and message of an Error, and the stack when asked', () => {
    const error = Object.assign(new TypeError('boom'), {
      request: { headers: { authorization: 'Bearer x' } },
    });
    expect(describeError(error)).toEqual({ name: 'TypeError', message: 'boom' });
    expect(describeError(error, { stack: true })).toEqual({
      name: 'TypeError',
      message: 'boom',
      stack: error.stack,
    });
  });

  it('describes any other thrown value as text, without throwing', () => {
    expect(describeError('nope')).toEqual({ name: 'unknown', message: 'nope' });
    expect(describeError(undefined, { stack: true })).toEqual({ name: 'unknown', message: 'undefined' });
    expect(describeError(Object.create(null)).message).toBe('[object Object]');
    const hostile = {
      toString: () => {
        throw new Error('no');
      },
    };
    expect(errorMessage(hostile)).toBe('[object Object]');
    expect(errorMessage(new Error('why'))).toBe('why');
  });
});
