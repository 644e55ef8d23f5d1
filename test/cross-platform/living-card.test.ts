/**
 * One living card per video, across platforms: Slack (real Bolt), Discord (real
 * discord.js) and the playground on ONE simulator and ONE store. Create on Slack; `status` on Discord and in
 * the playground adds a projection in each; a thumbnail picked on the Discord card shows on the Slack card
 * with who picked it; Render clicked in the playground brings the MP4 link to all three cards; a schedule from
 * Slack shows its time on all three. The poller looks at the generation once per look, not once per card,
 * and each milestone lands once in each projection's thread. On both simulator profiles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { projectionsOf, videoState } from '../../src/core/live/projections.js';
import { sectionsOf } from '../discord/read-message.js';
import type { FakeMessage } from '../slack/fake-slack.js';
import { blocksText } from '../slack/world.js';
import { type CrossWorld, crossWorld, type Shown } from './world.js';

const MINUTE = 60_000;
const PLATFORMS = ['slack', 'discord', 'playground'] as const;
let w: CrossWorld | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  it('keeps one card live on Slack, Discord and the playground, with one watch and one look per poll', async () => {
    w = await crossWorld(profile);
    const { h, slack, discord } = w;
    const world = w;
    const shownAll = async (videoId: string) => {
      const out = {} as Record<(typeof PLATFORMS)[number], Shown>;
      for (const p of PLATFORMS) {
        const s = await world.shown(p, videoId);
        if (!s) throw new Error(`no ${p} projection of ${videoId}`);
        out[p] = s;
      }
      return out;
    };

    // ---- create on Slack ----
    const sent = await slack.command(
      'create --model motion_pro --name "Octopus facts" Octopuses have three hearts and blue blood.',
    );
    const confirm = await slack.reply(sent.responseUrl);
    const created = await slack.click(
      { blocks: confirm.blocks as unknown[], ts: '1700000001.000100', ephemeral: true },
      'video.create.confirm',
    );
    expect(blocksText((await slack.reply(created.responseUrl)).blocks as unknown[])).toContain('Creating');
    await h.flush();
    const [slackCard] = slack.cards();
    if (!slackCard) throw new Error('no Slack card');
    const videoId = idOf(slackCard);

    // ---- `status` on Discord and in the playground: a projection in each, still one watch ----
    await discord.slash('status', { video: videoId }, 'bob');
    await w.playgroundCommand(`status ${videoId}`, 'carol');
    await h.flush();
    expect((await projectionsOf(h.store, videoId)).map((p) => p.conversation).sort()).toEqual([
      w.conversations.discord,
      w.conversations.playground,
      w.conversations.slack,
    ]);
    const watches = async () =>
      (await h.store.watches.active()).filter((x) => x.target === videoId || x.state.videoId === videoId);
    expect((await watches()).map((x) => x.kind)).toEqual(['generation']);
    for (const p of PLATFORMS) expect((await w.shown(p, videoId))?.text).toContain('Octopus facts');
    // The status answers were private; each channel shows the one live card.
    const publicCards = async () => ({
      slack: slack.cards().length,
      discord: discord.fake.channelMessages().length,
      playground: (await world.playgroundHistory('alice')).filter(
        (m) => !m.threadOf && !m.html.includes('data-ephemeral="true"'),
      ).length,
    });
    expect(await publicCards()).toEqual({ slack: 1, discord: 1, playground: 1 });

    // ---- generation: every look is ONE status call, whatever the number of projections ----
    const statusPath = `/videos/${videoId}/status`;
    const proxy = h.proxy;
    if (!proxy) throw new Error('the world runs behind the recording proxy');
    const perLook: number[] = [];
    /** One poller pass after `ms`, counting the status calls it made for the video. */
    const advanceCounting = async (ms: number) => {
      const before = proxy.calls.length;
      await h.advance(ms);
      const calls = proxy.calls.slice(before).filter((c) => c.path === statusPath).length;
      if (calls > 0) perLook.push(calls);
    };
    const discordCard = async () => {
      const id = (await h.store.cards.get(`video:${videoId}@${world.conversations.discord}`))?.message?.split(
        ':',
      )[3];
      const message = id ? discord.fake.messages.get(id) : undefined;
      if (!message) throw new Error('no Discord card');
      return message;
    };
    for (let spent = 0; sectionsOf(await discordCard()).length < 3; spent += 5_000) {
      if (spent > 20 * MINUTE) throw new Error('generation never showed thumbnails');
      await advanceCounting(5_000);
    }
    expect(perLook.length).toBeGreaterThan(2);
    expect(Math.max(...perLook)).toBe(1);
    expect((await watches()).filter((x) => x.kind === 'generation').length).toBeLessThanOrEqual(1);
    // …and each look reached every projection: the Slack card (chat.update) and the Discord card (PATCH) moved.
    expect(
      slack.fake.callsOf('chat.update').filter((c) => c.args.ts === slackCard.ts).length,
    ).toBeGreaterThan(2);
    expect(discord.fake.edits((await discordCard()).id).length).toBeGreaterThan(2);
    const generated = await shownAll(videoId);
    for (const p of PLATFORMS) expect(generated[p].text, p).toMatch(/Use this|option 3/);

    // ---- pick a thumbnail on the Discord card: the Slack card shows the pick and who made it (Bob is the
    // Discord member's display name; the Slack member of that name is `bob`) ----
    // Option 3's "Use this" sits beside its text (a V2 section): clicked by its custom id.
    const third = sectionsOf(await discordCard())[2]?.accessory.custom_id as string;
    const pick = await discord.click(await discordCard(), third, 'bob');
    expect(pick.callbacks[0]).toMatchObject({ type: 4 });
    await h.flush();
    const picked = await shownAll(videoId);
    expect(picked.slack.text).toContain('in use (picked by Bob)');
    expect(picked.discord.text).toContain('in use (picked by Bob)');
    expect(picked.playground.text).toContain('in use (picked by Bob)');

    // ---- render from the playground: all three cards show the MP4 link ----
    const pgCardId = (
      await h.store.cards.get(`video:${videoId}@${w.conversations.playground}`)
    )?.message?.split(':')[3];
    const pgCard = (await w.playgroundHistory()).find((m) => m.id === pgCardId);
    if (!pgCard) throw new Error('no playground card');
    const render = await w.playgroundClick(pgCard, 'video.render');
    expect(render.status).toBe(200);
    expect((await watches()).filter((x) => x.kind === 'render')).toHaveLength(1);
    const mp4 = async () => {
      const all = await shownAll(videoId);
      return PLATFORMS.every((p) => all[p].links.some((l) => l.endsWith('.mp4')));
    };
    for (let spent = 0; !(await mp4()); spent += 5_000) {
      if (spent > 10 * MINUTE) throw new Error('the render never reached all three cards');
      await advanceCounting(5_000);
    }
    const url = (await videoState(h.store, videoId))?.render?.url;
    expect(url).toMatch(/\.mp4$/);
    const rendered = await shownAll(videoId);
    for (const p of PLATFORMS) expect(rendered[p].links, p).toContain(url);

    // ---- schedule from Slack (the card's button, its modal, YouTube's details): all three show the time ----
    const schedule = await slack.click(
      { blocks: latest(slack.cards(), videoId).blocks, ts: slackCard.ts },
      'video.schedule',
    );
    await slack.fake.waitFor(() => slack.fake.callsOf('views.open').at(-1), 'views.open');
    const next = await slack.submit({ platforms: 'youtube', when: '2026-12-01 18:00' });
    expect(next.ack?.response_action).toBe('update');
    await slack.submit(
      { title: 'Octopus facts', description: '', privacyStatus: 'public' },
      { view: next.ack?.view as Record<string, unknown> },
    );
    const scheduled = await slack.reply(schedule.responseUrl);
    expect(blocksText(scheduled.blocks as unknown[])).toContain('17:00 UTC');
    await h.flush();
    const final = await shownAll(videoId);
    for (const p of PLATFORMS) {
      expect(final[p].text, p).toMatch(/Tue 1 Dec 2026, 18:00 Europe\/Paris \(17:00 UTC\)/);
      expect(final[p].text, p).toMatch(/YouTube/);
      expect(final[p].text, p).toContain('in use (picked by Bob)');
      expect(final[p].links, p).toContain(url);
    }
    // Different teams (a Slack workspace, a Discord server, the playground): no card names another's channel.
    for (const p of PLATFORMS) expect(final[p].text, p).not.toContain('also live in');

    // ---- the post goes out at its time: every card shows it, and says so once in each thread ----
    const posted = async () => {
      const all = await shownAll(videoId);
      return PLATFORMS.every((p) => all[p].thread.some((t) => /Posted to YouTube/i.test(t)));
    };
    for (let spent = 0; !(await posted()); spent += 3 * 3600_000) {
      if (spent > 10 * 24 * 3600_000) throw new Error('the post never reached all three threads');
      await advanceCounting(3 * 3600_000);
    }
    // A day more of looks: nothing said twice.
    for (let i = 0; i < 8; i++) await advanceCounting(3 * 3600_000);
    const end = await shownAll(videoId);

    // ---- milestones: once in each projection's thread ----
    const count = (s: Shown, re: RegExp) => s.thread.filter((t) => re.test(t)).length;
    const threads = Object.fromEntries(
      PLATFORMS.map((p) => [
        p,
        {
          ready: count(end[p], /✅ Octopus facts is ready/),
          rendered: count(end[p], /🎞️ Octopus facts/),
          posted: count(end[p], /Posted to YouTube/i),
          total: end[p].thread.length,
        },
      ]),
    );
    console.info(
      `living card (${profile}): status calls per look ${JSON.stringify(perLook)}; thread messages per projection ${JSON.stringify(threads)}`,
    );
    for (const p of PLATFORMS) expect(threads[p], p).toEqual({ ready: 1, rendered: 1, posted: 1, total: 3 });
    expect(Math.max(...perLook)).toBe(1);
    // Every card ends on the same state: the pick, the MP4, the post done.
    expect((await videoState(h.store, videoId))?.schedule?.statuses).toEqual({ youtube: 'posted' });
    for (const p of PLATFORMS) {
      expect(end[p].text, p).toMatch(/18:00 Europe\/Paris \(17:00 UTC\) → YouTube \(posted\)/);
      expect(end[p].text, p).toContain('in use (picked by Bob)');
      expect(end[p].links, p).toContain(url);
    }
    // One card per conversation: nothing re-posted.
    expect(await publicCards()).toEqual({ slack: 1, discord: 1, playground: 1 });
  }, 30_000);
});

/** The video id from a Slack card's context line (`id \`…\``). */
function idOf(message: FakeMessage): string {
  const id = /id `([A-Za-z0-9_]+)`/.exec(blocksText(message.blocks))?.[1];
  if (!id) throw new Error(`no id in ${blocksText(message.blocks)}`);
  return id;
}

function latest(cards: FakeMessage[], videoId: string): FakeMessage {
  const card = cards.find((m) => idOf(m) === videoId);
  if (!card) throw new Error('no Slack card');
  return card;
}
