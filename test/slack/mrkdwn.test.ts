/** Core markdown → Slack mrkdwn, escaped and split within Slack's limits, and command references as typed. */
import { describe, expect, it } from 'vitest';
import { commandText } from '../../adapters/slack/command-text.js';
import { splitMrkdwn, toMrkdwn, toPlain, truncate, truncateMrkdwn } from '../../adapters/slack/text.js';
import { channel, code, command, commandName, literal, mention } from '../../src/core/text/text.js';

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
