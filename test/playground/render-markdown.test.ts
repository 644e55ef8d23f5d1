/** The playground's markdown → HTML, escaped, and command references read as typed in the composer. */
import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../adapters/playground/text.js';
import { command } from '../../src/core/text/text.js';
import { HOSTILE, tags } from './html-probes.js';

describe('markdownToHtml', () => {
  it('converts the card subset', () => {
    expect(markdownToHtml('**bold** and _italic_ and `code`\nline two')).toBe(
      '<strong>bold</strong> and <em>italic</em> and <code>code</code><br>line two',
    );
  });

  it('links only http(s) URLs, opening in a new tab without an opener', () => {
    expect(markdownToHtml('[Docs](https://example.com/a?b=1&c=2)')).toBe(
      '<a href="https://example.com/a?b=1&amp;c=2" target="_blank" rel="noopener noreferrer">Docs</a>',
    );
    expect(markdownToHtml('[x](javascript:alert(1))')).not.toContain('<a');
    expect(markdownToHtml('[x](data:text/html,hi)')).not.toContain('href');
    expect(markdownToHtml('[x](/relative)')).toBe('x');
  });

  it('escapes first, so hostile text never becomes markup', () => {
    const html = markdownToHtml(`**${HOSTILE}** [${HOSTILE}](https://ok.example) \`${HOSTILE}\``);
    expect(tags(html).sort()).toEqual(['a', 'code', 'strong']);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('onerror=alert(1)>');
  });

  it('cannot be tricked into an attribute by a quote in a link URL', () => {
    const html = markdownToHtml('[x](https://a.example/"onmouseover="alert(1))');
    expect(html).not.toMatch(/"\s*onmouseover=/);
    expect(html).toContain('&quot;');
  });

  it('leaves snake_case names and markup inside code alone', () => {
    expect(markdownToHtml('video_id_here')).toBe('video_id_here');
    expect(markdownToHtml('`**not bold** _nor italic_`')).toBe('<code>**not bold** _nor italic_</code>');
    expect(markdownToHtml('_Stopped watching after 6 h_')).toBe('<em>Stopped watching after 6 h</em>');
  });

  it('keeps a code span inside a link label', () => {
    expect(markdownToHtml('[`v_1`](https://x.example)')).toBe(
      '<a href="https://x.example" target="_blank" rel="noopener noreferrer"><code>v_1</code></a>',
    );
  });

  it('ignores NUL characters rather than letting them forge placeholders', () => {
    expect(markdownToHtml('a\u00000\u0000b `c`')).toBe('a0b <code>c</code>');
  });
});

describe('command references', () => {
  it('read as typed in the composer (`/reel link`), as inline code, escaped', () => {
    expect(markdownToHtml(`Run ${command('link')} first.`)).toBe(
      'Run <code class="command" data-testid="command">/reel link</code> first.',
    );
    expect(markdownToHtml(command('status', ['<b>x</b>']))).toBe(
      '<code class="command" data-testid="command">/reel status &lt;b&gt;x&lt;/b&gt;</code>',
    );
  });
});
