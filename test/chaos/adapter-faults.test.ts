/**
 * Chat platform faults through the REAL adapters: the fake Slack Web API and the fake Discord REST API fail
 * the outbox's posts and edits at random (429 with Retry-After, 5xx / transient platform errors) while three
 * videos go from create to ready. Every status card is posted once, every milestone once, nothing is lost
 * (the outbox ends empty, no item failed).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../bench/lib/stats.js';
import { titleOf } from '../discord/read-message.js';
import { discordWorld, type World } from '../discord/world.js';
import { type SlackWorld, slackWorld } from '../slack/world.js';

const MINUTE = 60_000;
const VIDEOS = 4;
const failedItems = (logs: string[]) => logs.filter((l) => l.includes('outbox item failed'));

describe('chat platform faults through the real adapters', () => {
  let slack: SlackWorld | undefined;
  let discord: World | undefined;
  afterEach(async () => {
    await slack?.close();
    await discord?.close();
    slack = undefined;
    discord = undefined;
  });

  it('Slack: random 429s and transient errors on chat.postMessage / chat.update lose and double nothing', async () => {
    slack = await slackWorld();
    const w = slack;
    for (let i = 0; i < VIDEOS; i++) {
      const sent = await w.command(
        `create --name "Fault ${i}" Octopuses have three hearts, blue blood and ${i} arms.`,
      );
      const confirm = await w.reply(sent.responseUrl);
      const click = await w.click(
        { blocks: confirm.blocks as unknown[], ts: `170000000${i}.000100`, ephemeral: true },
        'video.create.confirm',
      );
      await w.reply(click.responseUrl);
    }
    const random = seededRandom(17);
    let injected = 0;
    // Every Web API call fails on its own, at random (the fake's scripted-failure lookup, made random).
    let faulty = true;
    const failures = (w.fake as unknown as { failures: Map<string, { shift(): unknown }> }).failures;
    failures.get = (method: string) => ({
      shift: () => {
        if (!faulty || (method !== 'chat.postMessage' && method !== 'chat.update')) return undefined;
        const r = random();
        if (r >= 0.3) return undefined;
        injected++;
        return r < 0.1 ? { retryAfter: 1 + Math.floor(random() * 3) } : { error: 'service_unavailable' };
      },
    });
    const ready = () => w.fake.messages.filter((m) => m.thread_ts && m.text.includes('is ready'));
    await w.h.until(() => ready().length >= VIDEOS, { stepMs: 5_000, maxMs: 30 * MINUTE });
    faulty = false;
    // Calm again: let the last edits (thumbnails) go out.
    for (let i = 0; i < 20; i++) await w.h.advance(15_000);
    await w.h.flush();

    expect(injected).toBeGreaterThanOrEqual(3);
    console.info(`adapter faults: Slack, ${injected} injected failures`);
    const cards = w.cards();
    expect(cards).toHaveLength(VIDEOS);
    for (const card of cards) {
      const replies = w.fake.messages.filter((m) => m.thread_ts === card.ts && m.text.includes('is ready'));
      expect(replies, `ready replies under ${card.text}`).toHaveLength(1);
    }
    expect(await w.h.store.outbox.depth()).toBe(0);
    if (process.env.CHAOS_VERBOSE) {
      const failed = failedItems(w.h.logs).map((l) => (JSON.parse(l) as { outboxId: number }).outboxId);
      for (const id of failed.slice(0, 1)) {
        console.info(
          w.h.logs
            .filter((l) => l.includes(`"outboxId":${id},`))
            .map((l) => l.slice(0, 300))
            .join(''),
        );
      }
    }
    expect(failedItems(w.h.logs)).toEqual([]);
  }, 120_000);

  it('Discord: random 429s and 5xx on channel posts and edits lose and double nothing', async () => {
    discord = await discordWorld({ mode: 'http' });
    const w = discord;
    for (let i = 0; i < VIDEOS; i++) {
      const confirm = await w.slash('create', {
        script: `Octopuses have three hearts, blue blood and ${i} arms to taste with.`,
        name: `Fault ${i}`,
      });
      await w.click(w.original(confirm), /^Create/);
    }
    const random = seededRandom(19);
    let injected = 0;
    // Posts and edits fail on their own at random: a scripted failure whose path test is a coin toss.
    let faulty = true;
    const coin = (pattern: RegExp, rate: number) =>
      ({ test: (path: string) => faulty && pattern.test(path) && random() < rate }) as unknown as RegExp;
    const arm = () => {
      const kinds = [
        { method: 'POST', path: coin(/\/channels\/\d+\/messages$/, 0.1), status: 429, retryAfter: 1 },
        { method: 'POST', path: coin(/\/channels\/\d+\/messages$/, 0.15), status: 502 },
        { method: 'PATCH', path: coin(/\/channels\/\d+\/messages\/\d+$/, 0.1), status: 429, retryAfter: 2 },
        { method: 'PATCH', path: coin(/\/channels\/\d+\/messages\/\d+$/, 0.15), status: 500 },
      ];
      injected += kinds.length - w.fake.failures.length;
      w.fake.failures.length = 0;
      w.fake.failures.push(...kinds);
    };
    const readyIn = (cardId: string) =>
      w.fake.channelMessages(cardId).filter((m) => titleOf(m).includes('is ready'));
    const cards = () => w.fake.channelMessages();
    // discord.js keeps its own rate-limit buckets in real time: give each virtual step a little of it.
    for (
      let step = 0;
      !(cards().length >= VIDEOS && cards().every((c) => readyIn(c.id).length > 0));
      step++
    ) {
      if (step > 360) throw new Error('not every card got its ready notice within 30 min of virtual time');
      arm();
      await w.h.advance(5_000);
      await new Promise((r) => setTimeout(r, 25));
    }
    faulty = false;
    for (let i = 0; i < 20; i++) await w.h.advance(15_000);
    await w.h.flush();

    expect(injected).toBeGreaterThanOrEqual(3);
    console.info(`adapter faults: Discord, ${injected} injected failures`);
    expect(cards()).toHaveLength(VIDEOS);
    for (const card of cards()) expect(readyIn(card.id), `ready replies under ${card.id}`).toHaveLength(1);
    expect(await w.h.store.outbox.depth()).toBe(0);
    expect(failedItems(w.h.logs)).toEqual([]);
  }, 120_000);
});
