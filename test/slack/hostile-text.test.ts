/**
 * Names are shown, never obeyed: a video named with Slack's special syntax (`<!channel>`, a user-group or user
 * mention), a markdown link or bold travels through create, an approval and a rename, and every message Slack
 * receives (blocks, the fallback `text`, response_url answers) shows it as typed; nothing in it pings or links.
 * The only live mentions are the ones the core made: the approvers, who the approval card pings.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KEY } from '../support/harness.js';
import type { FakeMessage } from './fake-slack.js';
import { address, BOB, blocksText, type SlackWorld, slackWorld } from './world.js';

const GROUP = 'S0GRP';
/** What a member can type as a name (Slack sends `@channel` and picked mentions in its own syntax). */
const HOSTILE =
  '<!channel> <!subteam^S0ABCDEF> <@U0MALLORY> @everyone [Approve](https://ev.il) **x** a\\b ⟦@slack:T0001:U0MALLORY⟧';
const RENAMED = '<!here> [Open](https://ev.il/2) _y_ `z`';

let w: SlackWorld;
beforeEach(async () => {
  w = await slackWorld();
  // bob approves with his own key (the approved action runs under the approver's key).
  await w.h.store.keys.put(address.user(BOB), {
    apiKey: DEMO_KEY,
    keyPrefix: DEMO_KEY.slice(0, 12),
    teamId: 'team',
    teamName: 'Team',
  });
});
afterEach(() => w.close());

/** Every mrkdwn text of some blocks (plain_text is never parsed by Slack, so it cannot ping or link). */
function mrkdwnOf(blocks: unknown[] | undefined): string[] {
  const out: string[] = [];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (o.type === 'mrkdwn' && typeof o.text === 'string') out.push(o.text);
    for (const value of Object.values(o)) visit(value);
  };
  visit(blocks ?? []);
  return out;
}

/** Every text Slack parses as mrkdwn in what the adapter sent: message text and mrkdwn blocks. */
function parsedTexts(): string[] {
  const bodies: { text?: unknown; blocks?: unknown }[] = [
    ...w.fake.calls
      .filter((c) => ['chat.postMessage', 'chat.update', 'chat.postEphemeral'].includes(c.method))
      .map((c) => c.args),
    ...w.fake.responses.map((r) => r.body),
  ];
  return bodies.flatMap((b) => [
    ...(typeof b.text === 'string' ? [b.text] : []),
    ...mrkdwnOf(b.blocks as unknown[] | undefined),
  ]);
}

/** Mentions and links Slack would make live in `text`. */
const liveSyntax = (text: string): string[] => text.match(/<[!@#][^>]*>|<https?:[^>]*>/g) ?? [];
/** How a member reads mrkdwn: entities undone, the zero-width fences around formatting characters gone. */
const readable = (text: string): string =>
  text
    .replace(/\u200b/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const channelCard = (title: RegExp): FakeMessage => {
  const card = w.fake.messages.find((m) => title.test(blocksText(m.blocks)));
  if (!card) throw new Error(`no channel card matching ${title}`);
  return card;
};

describe('hostile names on Slack', () => {
  it('shows them as typed everywhere; only the approvers the core named are mentioned, and pinged', async () => {
    for (const line of [
      'settings role admin <@U01ALICE|alice>',
      'settings approval spend',
      'settings spend-threshold 10',
      `settings approvers <@${BOB}|bob> <!subteam^${GROUP}|@reviewers>`,
    ]) {
      await w.command(line, { raw: true });
    }
    const sent = await w.command(`create --name "${HOSTILE}" Octopuses have three hearts and blue blood.`, {
      raw: true,
    });
    const confirm = await w.reply(sent.responseUrl);
    expect(readable(blocksText(confirm.blocks as unknown[]))).toContain(HOSTILE);

    const click = await w.click(
      { blocks: confirm.blocks as unknown[], ts: '1700000001.000100', ephemeral: true },
      'video.create.confirm',
    );
    await w.reply(click.responseUrl);
    await w.h.flush();

    // The approval card: its fallback text starts with the approvers' mentions (what pings), its fields
    // name them natively, and the hostile name in its title and summary is text.
    const approval = channelCard(/Approval needed/);
    expect(approval.text.startsWith(`<@${BOB}> <!subteam^${GROUP}> `)).toBe(true);
    expect(mrkdwnOf(approval.blocks).join('\n')).toContain(`<@${BOB}>, <!subteam^${GROUP}>`);
    expect(readable(approval.text)).toContain(HOSTILE);
    expect(readable(blocksText(approval.blocks))).toContain(HOSTILE);

    const approved = await w.click({ blocks: approval.blocks, ts: approval.ts }, 'approval.approve', {
      user: BOB,
    });
    expect(readable(blocksText((await w.reply(approved.responseUrl)).blocks as unknown[]))).toContain(
      'Creating “<!channel> <!subteam^S0ABCDEF> <@U0MALLORY> @everyone [Approve](https://ev.il) **x**',
    );
    await w.h.flush();
    // Decided: the card no longer pings anyone.
    expect(approval.text).not.toContain('<@');
    const live = channelCard(/Generating voiceover/);
    expect(readable(blocksText(live.blocks))).toContain(HOSTILE);

    const videoId = /id `(\w+)`/.exec(blocksText(live.blocks))?.[1];
    const renamed = await w.command(`rename ${videoId} ${RENAMED}`, { raw: true });
    expect(readable(blocksText((await w.reply(renamed.responseUrl)).blocks as unknown[]))).toContain(
      `is now “${RENAMED}”`,
    );
    await w.h.flush();
    expect(readable(blocksText(live.blocks))).toContain(RENAMED);
    expect(readable(live.text)).toContain(RENAMED);

    const texts = parsedTexts();
    expect(texts.length).toBeGreaterThan(5);
    const mentioned = texts.flatMap(liveSyntax);
    // The mentions the core made (approvers; alice as admin and as the requester) are the only live ones.
    expect([...new Set(mentioned.filter((s) => !s.startsWith('<http')))].sort()).toEqual(
      [`<!subteam^${GROUP}>`, `<@${BOB}>`, '<@U01ALICE>'].sort(),
    );
    expect(mentioned.filter((s) => s.includes('ev.il'))).toEqual([]);
    // `**x**` is not bold and `_y_` not italic: their characters are fenced so they cannot format.
    expect(texts.some((t) => t.includes('*x*'))).toBe(false);
  });
});
