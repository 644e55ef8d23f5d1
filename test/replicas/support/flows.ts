/**
 * A member's create → render → schedule flow over Slack, through the front door (any replica may take any
 * request), driven like a person: type a command or click a button, read the reply Slack shows (what the
 * replica posted to the response_url), wait for the bot's notifications in the video card's thread before the
 * next step. No reply in time (the replica died after acknowledging) or an error reply: the very same thing
 * is asked again, as chaos/support/rig.ts does; a retried step sends the same request, so it is the same user
 * action for the idempotency keys.
 */
import type { FakeMessage, FakeSlack } from '../../slack/fake-slack.js';
import { blocksText } from '../../slack/world.js';
import type { Member } from './cluster.js';
import type { Sent, SlackFrontDoor } from './slack-front-door.js';

const SCRIPT =
  'Three surprising facts about octopuses: they have three hearts, blue blood and taste with their arms.';
// real-time-ok: people and replicas in real processes; polls real HTTP traffic
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface FlowOutcome {
  member: Member;
  videoId?: string;
  done: boolean;
  /** Steps asked again (no reply, or an error reply). */
  retries: number;
  trace: string[];
  /** Real ms from start to each milestone. */
  at: Record<string, number>;
  error?: string;
}

export interface FlowDeps {
  door: SlackFrontDoor;
  slack: FakeSlack;
  deadline: number;
  /** How far ahead the post is scheduled (real ms). */
  scheduleLeadMs: number;
  /** Called as the flow reaches each step (the test kills a replica when the first flow is scheduled). */
  onStep?(step: 'created' | 'ready' | 'rendered' | 'scheduled' | 'posted', f: FlowOutcome): void;
}

/** What the fake channel shows in the card's thread: `✅ … is ready`, `🎞️ … rendered`, `Posted to X`. */
/** A milestone's words, after the mention of the member it pings (`<@U…> ✅ …`). */
const words = (text: string): string => text.replace(/^(?:<@[^>]+>\s*)+/, '');

export const MILESTONES = {
  ready: (text: string) => words(text).startsWith('✅'),
  rendered: (text: string) => words(text).startsWith('🎞️'),
  posted: (text: string) => words(text).startsWith('Posted to X'),
} as const;

/** The video's live card in the member's channel (the outbox's post, with reelbot metadata). */
export const cardsIn = (slack: FakeSlack, channel: string): FakeMessage[] =>
  slack.messages.filter(
    (m) => m.channel === channel && !m.thread_ts && m.metadata?.event_type === 'reelbot_card',
  );
/** The video id the channel's video card carries (its buttons name it), once the card is posted. */
const videoOnCard = (slack: FakeSlack, channel: string): string | undefined => {
  const card = cardsIn(slack, channel)[0];
  return card && /\b([0-9a-f]{24})\b/.exec(JSON.stringify(card.blocks ?? []))?.[1];
};

export const threadOf = (slack: FakeSlack, card: FakeMessage): FakeMessage[] =>
  slack.messages.filter((m) => m.channel === card.channel && m.thread_ts === card.ts);

export async function runFlow(f: FlowOutcome, d: FlowDeps): Promise<void> {
  const { door, slack } = d;
  const { user, channel, n } = f.member;
  const t0 = Date.now();
  const mark = (step: keyof typeof f.at | string) => {
    f.at[step] = Date.now() - t0;
  };

  /** Sends until a reply to the request's response_url satisfies `accept`. */
  async function ask<T>(
    what: string,
    send: () => Promise<Sent>,
    accept: (reply: { text: string; blocks: unknown[] }) => T | undefined,
  ): Promise<T> {
    while (Date.now() < d.deadline) {
      let sent: Sent | undefined;
      try {
        sent = await send();
      } catch (error) {
        f.trace.push(`${what}: ${String(error)}`);
      }
      const replyBy = Date.now() + 10_000;
      while (sent && Date.now() < replyBy) {
        for (const body of slack.responsesTo(sent.responseUrl)) {
          const blocks = (body.blocks as unknown[] | undefined) ?? [];
          const reply = { text: `${String(body.text ?? '')}\n${blocksText(blocks)}`, blocks };
          const got = accept(reply);
          if (got !== undefined) return got;
        }
        // An answer that is not what we need ends the wait: ask again.
        if (slack.responsesTo(sent.responseUrl).length > 0) break;
        // real-time-ok: polls the fake Slack for the reply a replica posts
        await sleep(50);
      }
      f.retries++;
      const replies = sent ? slack.responsesTo(sent.responseUrl) : [];
      f.trace.push(
        `${what} via ${sent?.replica ?? '-'}: ${replies.length ? blocksText(replies.at(-1)?.blocks as unknown[]).slice(0, 160) : 'no reply'}`,
      );
      // real-time-ok: a person waits a moment before asking again
      await sleep(300);
    }
    throw new Error(`flow ${n}: ${what} never succeeded; ${f.trace.slice(-4).join(' | ')}`);
  }

  async function waitThread(what: keyof typeof MILESTONES): Promise<void> {
    while (Date.now() < d.deadline) {
      const card = cardsIn(slack, channel)[0];
      if (card && threadOf(slack, card).some((m) => MILESTONES[what](m.text))) return;
      // real-time-ok: polls the fake Slack for the replicas' notifications
      await sleep(100);
    }
    throw new Error(`flow ${n}: never saw ${what} in the card's thread`);
  }

  // Create: the cost card, then its confirm button (the logical action; a retried click keeps its key).
  const confirm = await ask(
    'create',
    () => door.command(user, channel, `create --name "Flow ${n}" --model storyboard ${SCRIPT}`),
    (r) => (/video\.create\.confirm/.test(JSON.stringify(r.blocks)) ? r.blocks : undefined),
  );
  f.videoId = await ask(
    'confirm',
    () =>
      door.click(
        user,
        channel,
        { blocks: confirm, ts: '1700000001.000100', ephemeral: true },
        'video.create.confirm',
      ),
    (r) =>
      /id `([^`]+)`/.exec(r.text)?.[1] ??
      // The first click's answer was lost (its replica was slow or died after acting): the retry is told it is
      // "Already done", and the person finds the video on the card it posted in the channel.
      (/Already done/.test(r.text) ? videoOnCard(slack, channel) : undefined),
  );
  mark('created');
  d.onStep?.('created', f);
  const id = f.videoId;

  await waitThread('ready');
  mark('ready');
  d.onStep?.('ready', f);
  await ask(
    'render',
    () => door.command(user, channel, `render ${id}`),
    (r) => (/Rendering|Already rendering|already rendered/i.test(r.text) ? true : undefined),
  );
  await waitThread('rendered');
  mark('rendered');
  d.onStep?.('rendered', f);

  await ask(
    'meta',
    () => door.command(user, channel, `meta ${id} x Flow ${n} is out now`),
    (r) => (/post details saved/i.test(r.text) ? true : undefined),
  );
  // An absolute time, fixed once: a retry types the very same command (the same user action).
  const at = new Date(Math.ceil((Date.now() + d.scheduleLeadMs) / 1000) * 1000)
    .toISOString()
    .replace('.000', '');
  const answer = await ask(
    'schedule',
    () => door.command(user, channel, `schedule ${id} x ${at}`),
    // A retry after the first went through is told so ("Already sent this schedule at …", typed-replay.ts).
    // Every flow posts to the same X account within seconds: a clash, warned before anything is sent.
    (r) =>
      /Scheduled|Already sent this schedule/.test(r.text)
        ? 'scheduled'
        : /schedule\.anyway/.test(JSON.stringify(r.blocks))
          ? r.blocks
          : undefined,
  );
  if (answer !== 'scheduled') {
    await ask(
      'schedule anyway',
      () =>
        door.click(
          user,
          channel,
          { blocks: answer, ts: '1700000001.000200', ephemeral: true },
          'schedule.anyway',
        ),
      (r) => (/Scheduled|Already/.test(r.text) ? true : undefined),
    );
  }
  mark('scheduled');
  d.onStep?.('scheduled', f);
  await waitThread('posted');
  mark('posted');
  d.onStep?.('posted', f);
  f.done = true;
}
