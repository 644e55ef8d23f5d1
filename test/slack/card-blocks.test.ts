/**
 * Card → Block Kit, unit by unit: fields, images, the text progress bar, buttons (styles, confirm dialogs, unique
 * action ids), selects, links, context, the documented limits cut gracefully rather than refused by Slack, and the
 * fallback text.
 */
import { describe, expect, it } from 'vitest';
import {
  cardToBlocks,
  cardToMessage,
  decodeActionId,
  encodeActionId,
  LIMITS,
  progressText,
} from '../../adapters/slack/render.js';
import type { Card, Control } from '../../src/core/text/cards.js';
import { literal, md, mention } from '../../src/core/text/text.js';
import { cardText } from '../support/card-text.js';
import { blocksText, elements, expectValidBlocks } from './world.js';

type B = Record<string, unknown>;

describe('cards → blocks', () => {
  const card: Card = {
    title: md`Octopus facts`,
    tone: 'success',
    text: md`Generated. **Pick** a thumbnail.`,
    fields: [
      { label: md`Model`, value: md`motion_pro`, short: true },
      { label: md`Credits`, value: md`100`, short: true },
      { label: md`Render`, value: md`[Download MP4](https://cdn.example.com/v.mp4)` },
    ],
    image: { url: 'https://cdn.example.com/t.png', alt: 'Thumbnail' },
    progress: { percent: 42, label: md`▓▓▓▓░░░░░░ 42% · about 2 min left` },
    sections: [
      {
        text: md`Option 1`,
        image: { url: 'https://cdn.example.com/1.png', alt: 'Option 1' },
        controls: [
          { kind: 'button', action: 'thumbnail.pick', value: 'v1:a', label: 'Use this', style: 'primary' },
        ],
      },
    ],
    controls: [
      { kind: 'button', action: 'video.render', value: 'v1', label: 'Render' },
      {
        kind: 'button',
        action: 'video.delete',
        value: 'v1',
        label: 'Delete',
        style: 'danger',
        confirm: {
          title: md`Delete “Octopus facts”?`,
          text: md`No refund.`,
          confirm: 'Delete',
          deny: 'Keep it',
        },
      },
      { kind: 'link', label: 'Open', url: 'https://cdn.example.com/v.mp4' },
      {
        kind: 'select',
        action: 'videos.page',
        placeholder: 'Page',
        options: [
          { label: 'Page 1', value: '1' },
          { label: 'Page 2', value: '2' },
        ],
        initial: '2',
      },
    ],
    context: md`Requested by ${mention('slack:T1:U01ALICE')} · id \`v1\``,
  };

  it('lays out header, text, fields, image, bar, sections, actions and context', () => {
    const blocks = cardToBlocks(card) as unknown as B[];
    expectValidBlocks(blocks);
    expect(blocks.map((b) => b.type)).toEqual([
      'header',
      'section',
      'section',
      'section',
      'image',
      'section',
      'divider',
      'section',
      'image',
      'actions',
      'actions',
      'context',
    ]);
    expect(blocks[0]).toEqual({
      type: 'header',
      text: { type: 'plain_text', text: ':white_check_mark: Octopus facts', emoji: true },
    });
    expect(blocks[2]).toEqual({
      type: 'section',
      fields: [
        { type: 'mrkdwn', text: '*Model*\nmotion_pro' },
        { type: 'mrkdwn', text: '*Credits*\n100' },
      ],
    });
    expect((blocks[3]?.text as B | undefined)?.text).toBe(
      '*Render*\n<https://cdn.example.com/v.mp4|Download MP4>',
    );
    expect((blocks[5]?.text as B | undefined)?.text).toBe('▓▓▓▓░░░░░░ 42% · about 2 min left');
    const [pick, render, del, link, select] = elements(blocks);
    expect(pick).toMatchObject({ action_id: 'thumbnail.pick|0', value: 'v1:a', style: 'primary' });
    expect(render).toMatchObject({ action_id: 'video.render|1', value: 'v1' });
    expect(del).toMatchObject({
      style: 'danger',
      confirm: {
        title: { text: 'Delete “Octopus facts”?' },
        text: { text: 'No refund.' },
        confirm: { text: 'Delete' },
        deny: { text: 'Keep it' },
        style: 'danger',
      },
    });
    expect(link).toMatchObject({ url: 'https://cdn.example.com/v.mp4', action_id: '-link|3' });
    expect(select).toMatchObject({
      type: 'static_select',
      action_id: 'videos.page|4',
      initial_option: { value: '2' },
    });
    expect((blocks.at(-1)?.elements as B[] | undefined)?.[0]).toEqual({
      type: 'mrkdwn',
      text: 'Requested by <@U01ALICE> · id `v1`',
    });
    expect(cardToMessage(card).text).toBe('Octopus facts\nGenerated. Pick a thumbnail.');
  });

  it('links the title when the card has a URL, and drops actions for a dashboard', () => {
    const blocks = cardToBlocks(
      { ...card, url: 'https://cdn.example.com/v' },
      { withoutActions: true },
    ) as unknown as B[];
    expect(blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: ':white_check_mark: *<https://cdn.example.com/v|Octopus facts>*' },
    });
    expect(elements(blocks).map((e) => e.action_id)).toEqual(['-link|0']);
  });

  it('encodes and decodes action ids', () => {
    expect(decodeActionId(encodeActionId('thumbnail.pick', 12))).toBe('thumbnail.pick');
    expect(decodeActionId('plain')).toBe('plain');
    expect(progressText({ percent: 142 })).toBe('▓▓▓▓▓▓▓▓▓▓ 100%');
    expect(progressText({ percent: 35, label: md`rendering` })).toBe('▓▓▓▓░░░░░░ 35% · rendering');
  });

  it('respects every limit: 50 blocks, 3000 chars, 150 header, 10 fields, 25 actions, 75 label, 100 options', () => {
    const many: Control[] = Array.from({ length: 30 }, (_, i) => ({
      kind: 'button',
      action: 'a',
      value: 'v'.repeat(2100),
      label: `Button ${i} ${'x'.repeat(100)}`,
    }));
    const huge: Card = {
      title: md`T${cardText('i'.repeat(300))}`,
      text: md`${cardText('word '.repeat(1000))}\n${cardText('more '.repeat(1000))}`,
      fields: Array.from({ length: 25 }, (_, i) => ({
        label: md`F${i}`,
        value: cardText('v'.repeat(2500)),
        short: true,
      })),
      sections: Array.from({ length: 40 }, (_, i) => ({ text: md`Section ${i}` })),
      controls: [
        ...many,
        {
          kind: 'select',
          action: 's',
          placeholder: 'p',
          options: Array.from({ length: 150 }, (_, i) => ({ label: `o${i}`, value: String(i) })),
        },
      ],
      context: cardText('c'.repeat(4000)),
    };
    const blocks = cardToBlocks(huge) as unknown as B[];
    expectValidBlocks(blocks);
    expect(blocks).toHaveLength(LIMITS.messageBlocks);
    expect(String((blocks[0]?.text as B | undefined)?.text).endsWith('…')).toBe(true);
    // The card's own buttons and footer survive; sections were cut, with an ellipsis saying so.
    expect(blocks.filter((b) => b.type === 'actions')).toHaveLength(2);
    expect(blocks.at(-1)?.type).toBe('context');
    expect(blocksText(blocks)).toContain('…');
    const select = elements(blocks).find((e) => e.type === 'static_select') as B;
    expect((select.options as unknown[]).length).toBe(100);
    expect(cardToMessage(huge).text.length).toBeLessThanOrEqual(3000);
  });
});

describe('the fallback text', () => {
  it('is escaped like the blocks and starts with the notify mentions (what pings)', () => {
    const message = cardToMessage({
      title: md`Approval needed: ${literal('<!channel> Launch')}`,
      text: md`${literal('[Approve](https://ev.il) & <@U0X>')} for ${mention('slack:T1:U0BOB')}`,
      notify: ['slack:T1:U0BOB', 'slack-group:S0GRP'],
    });
    expect(message.text).toBe(
      '<@U0BOB> <!subteam^S0GRP> Approval needed: &lt;!channel&gt; Launch\n' +
        '[Approve](https://ev.il) &amp; &lt;@U0X&gt; for <@U0BOB>',
    );
    // Without a notify list nothing is prepended, and a raw title from anywhere is escaped all the same.
    expect(cardToMessage({ title: md`<!channel> Launch` }).text).toBe('&lt;!channel&gt; Launch');
  });
});
