/**
 * Card → Block Kit, unit by unit: markdown conversion and escaping, fields, images, the text progress bar,
 * buttons (styles, confirm dialogs, unique action ids), selects, links, context, and the documented limits
 * cut gracefully rather than refused by Slack.
 */
import { describe, expect, it } from 'vitest';
import { commandText } from '../../adapters/slack/command-text.js';
import {
  cardToBlocks,
  cardToMessage,
  decodeActionId,
  encodeActionId,
  LIMITS,
  progressText,
} from '../../adapters/slack/render.js';
import { splitMrkdwn, toMrkdwn, toPlain, truncate, truncateMrkdwn } from '../../adapters/slack/text.js';
import type { Card, Control } from '../../src/core/text/cards.js';
import { channel, code, command, commandName, literal, md, mention } from '../../src/core/text/text.js';
import { cardText } from '../support/card-text.js';
import { blocksText, elements, expectValidBlocks } from './world.js';

type B = Record<string, unknown>;

describe('core markdown → mrkdwn', () => {
  it('converts bold, links and code; escapes &, <, >', () => {
    expect(toMrkdwn('**Ready**: _now_ `a<b` [Open](https://x.example/a?b=1&c=2)')).toBe(
      '*Ready*: _now_ `a&lt;b` <https://x.example/a?b=1&amp;c=2|Open>',
    );
    expect(toMrkdwn('Tom & Jerry <!channel> <script>')).toBe(
      'Tom &amp; Jerry &lt;!channel&gt; &lt;script&gt;',
    );
    // Code spans are not formatted.
    expect(toMrkdwn('`**not bold**` **bold**')).toBe('`**not bold**` *bold*');
  });

  it('renders the mentions the core wrote with mention() natively, and escapes every <…> in the text', () => {
    const text = `by ${mention('slack:T1:U01ALICE')} for ${mention('slack-group:S0GRP')} in ${channel('slack:T1:C0VIDEOS')}`;
    expect(toMrkdwn(text)).toBe('by <@U01ALICE> for <!subteam^S0GRP> in <#C0VIDEOS>');
    // Platform syntax in text is text, wherever it came from: it never pings or links.
    expect(toMrkdwn('by <@U01ALICE> for <!subteam^S0GRP> in <#C0VIDEOS>')).toBe(
      'by &lt;@U01ALICE&gt; for &lt;!subteam^S0GRP&gt; in &lt;#C0VIDEOS&gt;',
    );
    expect(toMrkdwn('<!here> <@alice>')).toBe('&lt;!here&gt; &lt;@alice&gt;');
  });

  it('shows escaped values as typed: no formatting, link, mention token or entity from them', () => {
    expect(toMrkdwn(`**${literal('[Approve](https://evil.example)')}**`)).toBe(
      '*[Approve](https://evil.example)*',
    );
    expect(toMrkdwn(literal('<!channel> & <!subteam^S1>'))).toBe(
      '&lt;!channel&gt; &amp; &lt;!subteam^S1&gt;',
    );
    // A forged token is text; formatting characters are fenced so they cannot open or close anything.
    expect(toMrkdwn(literal('⟦@slack:T1:U1⟧'))).toBe('⟦@slack:T1:U1⟧');
    expect(toMrkdwn(literal('**x**'))).toBe('\u200b*\u200b\u200b*\u200bx\u200b*\u200b\u200b*\u200b');
    expect(toMrkdwn(literal('my_video_v2'))).toBe('my_video_v2');
    expect(toMrkdwn(literal('back\\slash'))).toBe('back\\slash');
    // In a code span the value is verbatim (a backtick could not stay: it would end the span).
    expect(toMrkdwn(code('a*b `c` <d>'))).toBe('`a*b ˋcˋ &lt;d&gt;`');
    expect(toPlain(`**${literal('**x** [a](https://e.example)')}**`)).toBe('**x** [a](https://e.example)');
  });

  it('does not let a link label or URL break out of the link', () => {
    expect(toMrkdwn('[a|b>c](https://x.example/p|q)')).toBe('<https://x.example/p%7Cq|a¦b&gt;c>');
  });

  it('turns markdown into plain text for plain_text objects', () => {
    expect(toPlain('**Render** `h264` [MP4](https://x.example/v.mp4)')).toBe('Render h264 MP4');
  });

  it('cuts at a boundary with an ellipsis, never inside an entity, link or code span', () => {
    expect(truncate('one two three four', 15)).toBe('one two three…');
    expect(truncate('one two three four', 12)).toBe('one two thr…');
    expect(truncate('x'.repeat(20), 10)).toHaveLength(10);
    const cut = truncateMrkdwn(`${'a'.repeat(90)} <https://x.example/${'p'.repeat(50)}|label>`, 100);
    expect(cut).not.toContain('<https');
    expect(cut.length).toBeLessThanOrEqual(100);
    expect(truncateMrkdwn(`${'a'.repeat(96)} &amp; tail`, 100)).not.toMatch(/&am?…$/);
    expect((truncateMrkdwn(`${'a'.repeat(90)} \`code span here\``, 100).match(/`/g)?.length ?? 0) % 2).toBe(
      0,
    );
    expect(splitMrkdwn(`${'a'.repeat(2000)}\n${'b'.repeat(2000)}`, 3000)).toHaveLength(2);
  });

  it('undoes Slack’s escaping of typed command text, keeping mentions', () => {
    expect(commandText('caption &lt;https://cdn.example.com/a.mp4&gt;')).toBe(
      'caption <https://cdn.example.com/a.mp4>',
    );
    expect(commandText('caption <https://cdn.example.com/a.mp4> --name "A &amp; B"')).toBe(
      'caption https://cdn.example.com/a.mp4 --name "A & B"',
    );
    expect(commandText('asset <https://cdn.example.com/x.mp4|cdn.example.com/x.mp4>')).toBe(
      'asset https://cdn.example.com/x.mp4',
    );
    expect(commandText('settings approvers <@U01ALICE|alice> <!subteam^S0GRP|@video>')).toBe(
      'settings approvers <@U01ALICE|alice> <!subteam^S0GRP|@video>',
    );
  });
});

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

describe('command references', () => {
  it('read as typed in Slack: `/reel link`, values quoted as the parser reads them, usage with --flags', () => {
    expect(toMrkdwn(`Run ${command('link')} first.`)).toBe('Run `/reel link` first.');
    expect(toMrkdwn(command('publish', ['Launch teaser', 'youtube'], { account: 'Brand' }))).toBe(
      '`/reel publish "Launch teaser" youtube --account Brand`',
    );
    expect(toMrkdwn(command('status', ['<!channel> `x`']))).toBe('`/reel status "&lt;!channel&gt; ˋxˋ"`');
    expect(toPlain(`change it with ${command('tz')}`)).toBe('change it with /reel tz');
    expect(toMrkdwn(commandName('link'))).toBe('`link`');
  });
});

describe('Block Kit where it serves', () => {
  it('shows a bullet list as a rich_text list: bold, code, links, mentions and channels as elements', () => {
    const card: Card = {
      title: md`Follows`,
      text: md`**Missing scopes:**\n• **videos:write** for ${command('create')}\n• ${channel('slack:T1:C0VIDEOS')} by ${mention('slack:T1:U01ALICE')} · [docs](https://x.example/a?b=1&c=2)\n• ${literal('a <b> & *c*')}\nAfter the list.`,
    };
    const blocks = cardToBlocks(card) as unknown as B[];
    expectValidBlocks(blocks);
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'rich_text', 'section']);
    const list = ((blocks[2]?.elements ?? []) as B[])[0] as { type: string; style: string; elements: B[] };
    expect(list).toMatchObject({ type: 'rich_text_list', style: 'bullet' });
    expect(list.elements.map((item) => item.elements)).toEqual([
      [
        { type: 'text', text: 'videos:write', style: { bold: true } },
        { type: 'text', text: ' for ' },
        { type: 'text', text: '/reel create', style: { code: true } },
      ],
      [
        { type: 'channel', channel_id: 'C0VIDEOS' },
        { type: 'text', text: ' by ' },
        { type: 'user', user_id: 'U01ALICE' },
        { type: 'text', text: ' · ' },
        { type: 'link', url: 'https://x.example/a?b=1&c=2', text: 'docs' },
      ],
      // Typed text stays as typed: no formatting, no mention, the characters themselves.
      [{ type: 'text', text: 'a <b> & *c*' }],
    ]);
    expect(blocks[1]?.text).toEqual({ type: 'mrkdwn', text: '*Missing scopes:*' });
    expect(blocks[3]?.text).toEqual({ type: 'mrkdwn', text: 'After the list.' });
    // A single bullet line is no list.
    expect(cardToBlocks({ title: md`One`, text: md`• alone` }).map((b) => b.type)).toEqual([
      'header',
      'section',
    ]);
  });

  it('quotes a script excerpt as rich_text, exactly as the member wrote it', () => {
    const script = 'Octopuses have *three* hearts & <blue> blood.\nThe end.';
    const card: Card = {
      title: md`Create?`,
      fields: [
        { label: md`Model`, value: md`motion_pro`, short: true },
        { label: md`Script`, value: literal(script) },
      ],
    };
    const blocks = cardToBlocks(card) as unknown as B[];
    expectValidBlocks(blocks);
    expect(blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'rich_text']);
    expect(blocks[2]?.text).toEqual({ type: 'mrkdwn', text: '*Script*' });
    expect(blocks[3]?.elements).toEqual([
      {
        type: 'rich_text_quote',
        elements: [
          { type: 'text', text: 'Octopuses have *three* hearts & <blue> blood.' },
          { type: 'text', text: '\n' },
          { type: 'text', text: 'The end.' },
        ],
      },
    ]);
  });

  it('shows a rendered video as its poster and a Watch / Download MP4 link button', () => {
    const card: Card = {
      title: md`Octopus facts`,
      text: md`Rendered.`,
      video: { url: 'https://cdn.example/v.mp4', poster: 'https://cdn.example/t.jpg', alt: 'Octopus facts' },
      controls: [{ kind: 'button', action: 'video.schedule', value: 'v1', label: 'Schedule' }],
    };
    const blocks = cardToBlocks(card) as unknown as B[];
    expectValidBlocks(blocks);
    expect(blocks.find((b) => b.type === 'image')).toMatchObject({
      image_url: 'https://cdn.example/t.jpg',
      alt_text: 'Octopus facts',
    });
    const buttons = elements(blocks);
    expect(buttons[0]).toMatchObject({
      url: 'https://cdn.example/v.mp4',
      text: { text: 'Watch / Download MP4' },
    });
    expect(decodeActionId(String(buttons[1]?.action_id))).toBe('video.schedule');
    // No poster: the button alone; the poster that is the card's image already is not shown twice.
    const bare = cardToBlocks({
      title: md`x`,
      video: { url: 'https://cdn.example/v.mp4', alt: 'x' },
    }) as unknown as B[];
    expect(bare.some((b) => b.type === 'image')).toBe(false);
    expect(elements(bare)[0]?.url).toBe('https://cdn.example/v.mp4');
    const same = cardToBlocks({
      title: md`x`,
      image: { url: 'https://cdn.example/t.jpg', alt: 'x' },
      video: { url: 'https://cdn.example/v.mp4', poster: 'https://cdn.example/t.jpg', alt: 'x' },
    }) as unknown as B[];
    expect(same.filter((b) => b.type === 'image')).toHaveLength(1);
  });

  it('puts a section’s thumbnail beside its text when cards are stacked (App Home)', () => {
    const card: Card = {
      title: md`Recent videos`,
      sections: [
        {
          text: md`**Octopus facts**`,
          image: { url: 'https://cdn.example/t.jpg', alt: 'Thumbnail' },
          controls: [{ kind: 'button', action: 'video.render', value: 'v1', label: 'Render' }],
        },
      ],
    };
    const stacked = cardToBlocks(card, { compact: true }) as unknown as B[];
    expect(stacked.map((b) => b.type)).toEqual(['header', 'divider', 'section', 'actions']);
    expect(stacked[2]?.accessory).toEqual({
      type: 'image',
      image_url: 'https://cdn.example/t.jpg',
      alt_text: 'Thumbnail',
    });
    // In a channel the thumbnail stays a full image (options are compared by eye).
    expect((cardToBlocks(card) as unknown as B[]).map((b) => b.type)).toEqual([
      'header',
      'divider',
      'section',
      'image',
      'actions',
    ]);
  });
});
