/** Remembering which of Slack's newest blocks a workspace refused, from Slack's own error payload. */
import { webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { BlockSupport, nativeTypesIn, refusedNativeTypes } from '../../adapters/slack/block-support.js';
import type { Clock } from '../../src/core/index.js';

/** A platform error as the Web API client throws it. */
function invalidBlocks(messages?: string[]) {
  return Object.assign(new Error('An API error occurred: invalid_blocks'), {
    code: webApi.ErrorCode.PlatformError,
    data: { ok: false, error: 'invalid_blocks', ...(messages ? { response_metadata: { messages } } : {}) },
  });
}

const blocks = [{ type: 'section' }, { type: 'carousel', elements: [] }, { type: 'data_table' }];

describe('refused native blocks', () => {
  it('names the type Slack points at', () => {
    const error = invalidBlocks(['[ERROR] unsupported type: data_table [json-pointer:/blocks/2/type]']);
    expect([...refusedNativeTypes(error, blocks)]).toEqual(['data_table']);
  });

  it('counts a carousel as its cards too', () => {
    const error = invalidBlocks(['[ERROR] unsupported type: carousel [json-pointer:/blocks/1/type]']);
    expect([...refusedNativeTypes(error, blocks)].sort()).toEqual(['card', 'carousel']);
  });

  it('reads the lines Slack gives in `errors` as well', () => {
    // Slack explains some refusals in a top-level `errors` list, without the `[ERROR]` prefix.
    const error = Object.assign(invalidBlocks(), {
      data: {
        ok: false,
        error: 'invalid_blocks',
        errors: ['unsupported type: data_table [json-pointer:/blocks/2/type]'],
      },
    });
    expect([...refusedNativeTypes(error, blocks)]).toEqual(['data_table']);
  });

  it('blames every native type sent when Slack points at none', () => {
    expect([...refusedNativeTypes(invalidBlocks(), blocks)].sort()).toEqual([
      'card',
      'carousel',
      'data_table',
    ]);
    const classic = invalidBlocks(['[ERROR] failed to match all allowed schemas [json-pointer:/blocks/0]']);
    expect(refusedNativeTypes(classic, blocks).size).toBe(3);
  });

  it('finds no native type in classic blocks', () => {
    expect(nativeTypesIn([{ type: 'section' }, { type: 'image' }]).size).toBe(0);
  });
});

describe('block support per workspace', () => {
  let now = 0;
  const clock: Clock = { now: () => now, sleep: async () => {}, timer: async () => {} };

  it('remembers a refusal for its workspace only, until the memory runs out', () => {
    const support = new BlockSupport(clock, 60_000);
    support.refuse('slack:T1', ['carousel', 'card']);
    expect([...support.refusedIn('slack:T1')].sort()).toEqual(['card', 'carousel']);
    expect(support.refusedIn('slack:T2').size).toBe(0);
    now += 59_999;
    expect(support.refusedIn('slack:T1').size).toBe(2);
    now += 1;
    expect(support.refusedIn('slack:T1').size).toBe(0);
  });
});
