/** A card's controls → Discord components: button rows, unique custom ids, confirmation steps, selects. */
import { describe, expect, it } from 'vitest';
import { confirmPayload, TONE_COLORS } from '../../adapters/discord/components.js';
import { parseCustomId } from '../../adapters/discord/custom-id.js';
import { md } from '../../src/core/text/text.js';
import { buttons, memory, readBack, render, V2 } from './checked-render.js';
import { messageProblems } from './discord-rules.js';
import { containerOf, textOf, titleOf } from './read-message.js';
import type { Json } from './world.js';

describe('controls → components', () => {
  it('keeps card buttons in a row inside the container: styles and links', () => {
    const payload = render({
      title: md`t`,
      controls: [
        { kind: 'button', action: 'video.render', value: 'v', label: 'Render', style: 'primary' },
        { kind: 'button', action: 'video.delete.confirm', value: 'v', label: 'Delete', style: 'danger' },
        { kind: 'button', action: 'video.schedule', value: 'v', label: 'Schedule' },
        { kind: 'link', label: 'Download MP4', url: 'https://cdn.example/v.mp4' },
        { kind: 'link', label: 'Bad link', url: 'ftp://nope' },
        { kind: 'link', label: 'Too long', url: `https://cdn.example/${'x'.repeat(600)}` },
      ],
    });
    const container = containerOf(payload) as Json;
    expect(container.components.map((c: Json) => c.type)).toEqual([10, 1]);
    expect(buttons(payload).map((b) => [b.style, b.custom_id ?? b.url])).toEqual([
      [1, 'r|video.render|v'],
      [4, 'r|video.delete.confirm|v'],
      [2, 'r|video.schedule|v'],
      [5, 'https://cdn.example/v.mp4'],
    ]);
  });

  it('keeps custom ids unique and within 100 characters', async () => {
    const m = memory();
    const long = 'x'.repeat(120);
    const payload = render(
      {
        title: md`t`,
        controls: [
          { kind: 'button', action: 'video.show', value: 'v1', label: 'Open' },
          { kind: 'button', action: 'video.show', value: 'v1', label: 'Open again' },
          { kind: 'button', action: 'video.show', value: long, label: 'Long' },
        ],
      },
      m,
    );
    const ids = buttons(payload).map((b) => String(b.custom_id));
    expect(ids.slice(0, 2)).toEqual(['r|video.show|v1', 'r2|video.show|v1']);
    expect(ids[2]).toMatch(/^h\|/);
    const stashed = parseCustomId(ids[2] as string);
    expect(stashed?.kind).toBe('stashed');
    const read = await readBack(m);
    expect(await read.action((stashed as { key: string }).key)).toEqual({
      action: 'video.show',
      value: long,
    });
    expect(parseCustomId(ids[1] as string)).toEqual({ kind: 'action', action: 'video.show', value: 'v1' });
  });

  it('marks destructive buttons for a confirmation step and builds it', async () => {
    const m = memory();
    const confirm = {
      title: md`Delete this video?`,
      text: md`No refund.`,
      confirm: md`Delete`,
      deny: 'Keep it',
    };
    const payload = render(
      {
        title: md`t`,
        controls: [
          {
            kind: 'button',
            action: 'video.delete.confirm',
            value: 'v',
            label: 'Delete',
            style: 'danger',
            confirm,
          },
        ],
      },
      m,
    );
    expect(buttons(payload)[0]?.custom_id).toBe('c|video.delete.confirm|v');
    const read = await readBack(m);
    expect(await read.confirm('video.delete.confirm', 'v')).toEqual(confirm);
    const ask = confirmPayload(confirm, { action: 'video.delete.confirm', value: 'v' }, m);
    expect(messageProblems(ask as unknown as Json)).toEqual([]);
    expect(ask.flags).toBe(V2);
    expect(titleOf(ask as unknown as Json)).toBe('Delete this video?');
    expect(textOf(ask as unknown as Json)).toBe('Delete this video?\nNo refund.');
    expect(containerOf(ask as unknown as Json)?.accent_color).toBe(TONE_COLORS.danger);
    expect(buttons(ask).map((b) => [b.label, b.style, b.custom_id])).toEqual([
      ['Delete', 4, 'r|video.delete.confirm|v'],
      ['Keep it', 2, 'x|1'],
    ]);
  });

  it('renders selects with at most 25 options, the initial one chosen', async () => {
    const m = memory();
    const long = `acct_${'y'.repeat(120)}`;
    const payload = render(
      {
        title: md`t`,
        controls: [
          {
            kind: 'select',
            action: 'publish.account',
            placeholder: 'Choose an account',
            initial: 'a1',
            options: [
              { label: 'Main', value: 'a1', description: 'default' },
              { label: 'Long', value: long },
              ...Array.from({ length: 30 }, (_, i) => ({ label: `Other ${i}`, value: `o${i}` })),
            ],
          },
        ],
      },
      m,
    );
    const [select] = buttons(payload);
    expect(select).toMatchObject({
      type: 3,
      custom_id: 'r|publish.account|',
      placeholder: 'Choose an account',
      min_values: 1,
      max_values: 1,
    });
    expect(select?.options).toHaveLength(25);
    expect(select?.options[0]).toEqual({ label: 'Main', value: 'a1', description: 'default', default: true });
    const read = await readBack(m);
    expect(await read.restoreValue(select?.options[1].value)).toBe(long);
  });
});
