/**
 * Names are shown, never obeyed, on Discord: a video named with mentions (`<@member>`, `<@&role>`,
 * `@everyone`, `@here`), a masked link and bold goes through create, an approval and a rename. Every message
 * body Discord receives allows no mention but the ones the core made, and only the approval card pings, its
 * approvers, in the text display above its card (`allowed_mentions` names exactly them, so no other mention in
 * a card's text pings). The name itself reads as typed (Discord's own backslash escapes), never as a link or a
 * mention.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { FakeMessage } from './fake-discord.js';
import { isV2, titleOf, videoIdOf } from './read-message.js';
import { controlsOf, discordWorld, IDS, type Json, MEMBERS, textOfMessage, type World } from './world.js';

const CAROL = MEMBERS.carol.id;
const BOB = MEMBERS.bob.id;
const HOSTILE = `<@${CAROL}> <@&${IDS.approvers}> @everyone @here [Approve](https://ev.il) **x** a\\b`;
const RENAMED = '@everyone [Open](https://ev.il/2) ||spoiler|| `z`';

let w: World;
afterEach(() => w?.close());

/** Every message body the adapter sent: channel posts and edits, interaction callbacks, webhook calls. */
function bodies(): Json[] {
  const rest = w.fake.requests
    .filter((r) => (r.method === 'POST' || r.method === 'PATCH') && r.body && !Array.isArray(r.body))
    .map((r) => r.body as Json)
    .filter((b) => b.embeds !== undefined || b.content !== undefined || isV2(b));
  const callbacks = [...w.fake.interactions.values()]
    .flatMap((i) => i.callbacks)
    .filter((c) => c.type === 4 || c.type === 7)
    .map((c) => c.data as Json);
  return [...rest, ...callbacks];
}

/** The text Discord renders, with its backslash escapes read as the characters they stand for. */
const readable = (text: string): string => text.replace(/\\([^\w\s])/g, '$1');
/** Mentions and masked links Discord would make of a text: not preceded by a backslash. */
const liveSyntax = (text: string): string[] =>
  [...text.matchAll(/(?<!\\)(<@[!&]?\d+>|\[[^\]\\]*\]\(https?:[^)]*\))/g)].map((m) => m[1] as string);

const cardOf = (test: (m: FakeMessage) => boolean): FakeMessage => {
  const card = w.fake.channelMessages().find(test);
  if (!card) throw new Error('no such channel message');
  return card;
};

describe('hostile names on Discord', () => {
  it('allow no mention but the approvers, who the approval card pings in its content', async () => {
    w = await discordWorld();
    await w.slash('channel settings', { key: 'role', value: `admin <@${MEMBERS.alice.id}>` });
    await w.slash('channel settings', { key: 'approval', value: 'spend' });
    await w.slash('channel settings', { key: 'spend-threshold', value: '10' });
    await w.slash('channel settings', { key: 'approvers', value: `<@${BOB}> <@&${IDS.approvers}>` });

    const confirm = await w.slash('create', {
      script: 'Octopuses have three hearts and blue blood.',
      name: HOSTILE,
    });
    expect(readable(textOfMessage(w.original(confirm)))).toContain(HOSTILE);
    await w.click(w.original(confirm), /^Request approval/);
    await w.h.flush();

    const approval = cardOf((m) => controlsOf(m).includes('Approve'));
    // The ping: a text display above the card, only mentions.
    expect(isV2(approval)).toBe(true);
    expect(approval.components[0]).toEqual({ type: 10, content: `<@${BOB}> <@&${IDS.approvers}>` });
    expect(approval.history[0]?.allowed_mentions).toEqual({
      parse: [],
      users: [BOB],
      roles: [IDS.approvers],
    });
    expect(readable(textOfMessage(approval))).toContain(HOSTILE);

    const approved = await w.click(approval, 'Approve', 'bob');
    expect(textOfMessage(w.original(approved))).toMatch(/^Approved · Creating/);
    await w.h.flush();
    // Decided: the edit drops the ping and allows nobody.
    expect(approval.components.map((c) => c.type)).toEqual([17]);
    expect(approval.history.at(-1)?.allowed_mentions).toEqual({ parse: [] });

    const live = cardOf((m) => /Generating voiceover/.test(textOfMessage(m)));
    expect(readable(titleOf(live))).toBe(HOSTILE);
    const videoId = videoIdOf(live) ?? '';
    const renamed = await w.slash('rename', { video: videoId, name: RENAMED });
    expect(readable(textOfMessage(w.original(renamed)))).toContain(`is now “${RENAMED}”`);
    await w.h.flush();
    expect(readable(titleOf(live))).toBe(RENAMED);

    const sent = bodies();
    expect(sent.length).toBeGreaterThan(5);
    for (const body of sent) {
      // Nothing is ever parsed from text: only the ids the card's notify list named may ping.
      expect(body.allowed_mentions?.parse).toEqual([]);
      for (const user of body.allowed_mentions?.users ?? []) expect(user).toBe(BOB);
      for (const role of body.allowed_mentions?.roles ?? []) expect(role).toBe(IDS.approvers);
      expect(body.content ?? '').toMatch(/^(<@\d+>|<@&\d+>| )*$/);
      // A V2 message's top-level text display (outside the card's container) is the ping: mentions only.
      const top = (body.components ?? []).filter((c: Json) => c.type === 10).map((c: Json) => c.content);
      for (const ping of top) expect(ping).toMatch(/^(<@\d+>|<@&\d+>| )*$/);
      const text = textOfMessage(body);
      for (const live of liveSyntax(text)) {
        // Mentions the core wrote (approvers, the requester) may stand in a card's text: `allowed_mentions`
        // (checked above) keeps them from pinging anyone but the notify list.
        expect([`<@${BOB}>`, `<@&${IDS.approvers}>`, `<@${MEMBERS.alice.id}>`]).toContain(live);
      }
    }
  });
});
