/** Mentions, pings and escaped text in what the bot posts on Discord. */
import { describe, expect, it } from 'vitest';
import { code, literal, md, mention } from '../../src/core/text/text.js';
import { render } from './checked-render.js';
import { contextOf, textDisplaysOf, textOf, titleOf } from './read-message.js';
import type { Json } from './world.js';

describe('mentions, pings and escaped text', () => {
  it('pings only the notify list: a text display above the card, with allowed_mentions naming exactly it', () => {
    const payload = render({
      title: md`Approval needed`,
      text: md`Approvers: ${mention('discord:G1:111')}, ${mention('discord-role:222')}`,
      notify: ['discord:G1:111', 'discord-role:222'],
    });
    expect(payload.components[0]).toEqual({ type: 10, content: '<@111> <@&222>' });
    expect(payload.components[1]?.type).toBe(17);
    expect(payload.allowed_mentions).toEqual({ parse: [], users: ['111'], roles: ['222'] });
    expect(textDisplaysOf({ components: [payload.components[1]] })).toEqual([
      '### Approval needed\nApprovers: <@111>, <@&222>',
    ]);
    const quiet = render({ title: md`Decided`, text: md`By ${mention('discord:G1:111')}` });
    expect(quiet.components.map((c: Json) => c.type)).toEqual([17]);
    expect(quiet.allowed_mentions).toEqual({ parse: [] });
  });

  it('keeps escaped values as Discord escapes, and verbatim in code', () => {
    const name = '<@333> @everyone [Approve](https://ev.il) **x** ⟦@discord:G1:333⟧';
    const payload = render({ title: literal(name), text: md`Renamed to ${code('a*b `c`')}` });
    expect(titleOf(payload)).toBe(
      '\\<@333\\> @everyone \\[Approve\\](https://ev.il) \\*\\*x\\*\\* ⟦@discord:G1:333⟧',
    );
    expect(textOf(payload)).toContain('Renamed to `` a*b `c` ``');
    expect(contextOf(render({ title: md`x`, context: md`by ${literal('**y**')}` }))).toBe('by \\*\\*y\\*\\*');
  });
});
