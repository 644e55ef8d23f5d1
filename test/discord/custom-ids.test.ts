/** The custom_id scheme: ids round-trip, and a click's id that is not the bot's is refused. */
import { describe, expect, it } from 'vitest';
import { actionId, modalId, parseCustomId } from '../../adapters/discord/custom-id.js';

describe('custom ids', () => {
  it('round-trip, and refuse what is not theirs', () => {
    const taken = new Set<string>();
    expect(
      parseCustomId(actionId({ kind: 'action', action: 'meta.pick', value: 'v|yt|1' }, taken) as string),
    ).toEqual({
      kind: 'action',
      action: 'meta.pick',
      value: 'v|yt|1',
    });
    expect(
      parseCustomId(
        actionId({ kind: 'confirm', action: 'series.delete.confirm', value: 's1' }, taken) as string,
      ),
    ).toEqual({
      kind: 'confirm',
      action: 'series.delete.confirm',
      value: 's1',
    });
    expect(actionId({ kind: 'action', action: 'a', value: 'x'.repeat(100) }, taken)).toBeUndefined();
    expect(parseCustomId(modalId('k', 'account.link', ''))).toEqual({
      kind: 'modal',
      key: 'k',
      formId: 'account.link',
      state: '',
    });
    expect(parseCustomId('o|abc')).toEqual({ kind: 'open-form', key: 'abc' });
    expect(parseCustomId('x|1')).toEqual({ kind: 'dismiss' });
    for (const bad of ['', 'hello', 'r|', 'r|action-without-value', 'z|1', 'm|'])
      expect(parseCustomId(bad), bad).toBeUndefined();
  });
});
