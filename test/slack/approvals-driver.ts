/**
 * The approval scenarios' driver on Slack: the REAL Bolt app in HTTP mode behind the shared HTTP server,
 * the real core, store, poller and outbox, and the fake Slack Web API. People act exactly as Slack would
 * send it — signed `/reel` slash commands, `block_actions` payloads for the buttons the fake recorded
 * (chat.postMessage / chat.update / response_url bodies), `view_submission` for the modal `views.open`
 * showed (payloads and cast in `approvals-payloads.ts`) — and what they see is read back from the Block
 * Kit the bot sent (`approvals-read.ts`).
 *
 * The cast: alice…erin are members of workspace T0001; erin is in the user group @reviewers (S0REVIEWERS),
 * answered by the fake's `usergroups.list`; mallory is an external (Slack Connect) member from workspace
 * T0002 in the same shared channels, linked to another video team's key. Channels: #video-team (`main`)
 * and #launches (`other`).
 *
 * Where the fake Web API stops, the driver plays Slack's part: a `response_url` body is shown to the
 * clicker as an ephemeral message (or in the channel with `in_channel`), and `replace_original` replaces
 * the message the clicked button was on.
 */
import { randomBytes } from 'node:crypto';
import { GROUPS_TTL_MS } from '../../adapters/slack/groups.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import type { Bot } from '../../src/core/dispatch/bot.js';
import { createHttpServer } from '../../src/http/server.js';
import {
  actorOf,
  type ButtonRef,
  type DriverOptions,
  type Person,
  type Reply,
  type ScenarioDriver,
  type ShownCard,
  type ShownForm,
} from '../core/approvals/driver.js';
import { harnessFixtures, OTHER_KEY, otherTeam } from '../core/approvals/fixtures.js';
import { createHarness, DEMO_KEY } from '../support/harness.js';
import {
  blockActions,
  CAST,
  CHANNELS,
  type Member,
  PEOPLE,
  REVIEWERS,
  slashCommand,
  TEAM,
  viewSubmission,
} from './approvals-payloads.js';
import { readMessage, type SlackButton, shownCard } from './approvals-read.js';
import { type FakeMessage, FakeSlack } from './fake-slack.js';
import { SIGNING_SECRET, sign } from './world.js';

const BOT_TOKEN = 'xoxb-17653672481-19874698323-approvalsDrv1';

/** A message a button can be on: in a channel (the fake's history) or ephemeral (only its viewer has it). */
type MessageRef = { kind: 'channel'; channel: string; ts: string } | { kind: 'ephemeral'; key: string };

interface Ephemeral {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
}

interface OpenForm {
  view: Record<string, unknown>;
  viewId: string;
  clicked?: string;
}

/** The scenario driver, plus the fake Slack for Slack-only checks (user groups changing, failures). */
export interface SlackScenarioDriver extends ScenarioDriver {
  readonly fake: FakeSlack;
  /** Slack user ids of the cast. */
  readonly ids: Record<Person, string>;
}

export async function createSlackDriver(options: DriverOptions = {}): Promise<SlackScenarioDriver> {
  const h = await createHarness({
    platform: 'slack',
    teams: [otherTeam()],
    simulator: { profile: options.profile ?? 'spec' },
  });
  const fake = await FakeSlack.start({
    now: () => h.clock.now(),
    team: { id: TEAM, name: 'Reel Team' },
    users: Object.fromEntries(
      Object.values(CAST).map((m) => [
        m.id,
        { name: m.name, realName: `${m.name} Example`, tz: m.tz, isAdmin: m.admin === true },
      ]),
    ),
    usergroups: [{ ...REVIEWERS, users: [CAST.erin.id] }],
  });
  const http = createHttpServer({
    logger: h.deps.logger,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
  });

  // Counts the core's work, only to tell "the core answered nothing" from "the answer is on its way".
  const core = { started: 0, running: 0 };
  const track = async <T>(work: () => Promise<T>): Promise<T> => {
    core.started++;
    core.running++;
    try {
      return await work();
    } finally {
      core.running--;
    }
  };
  const bot: Bot = {
    commands: h.bot.commands,
    handleText: (req, text) => track(() => h.bot.handleText(req, text)),
    handleCommand: (req, name, raw) => track(() => h.bot.handleCommand(req, name, raw)),
    handleTooLong: (req, typed) => h.bot.handleTooLong(req, typed),
    mayAnswerWithForm: (name) => h.bot.mayAnswerWithForm(name),
    handleAction: (req, input) => track(() => h.bot.handleAction(req, input)),
    handleForm: (req, submission) => track(() => h.bot.handleForm(req, submission)),
    autocomplete: (req, input) => h.bot.autocomplete(req, input),
  };
  const adapter = createSlackAdapter({
    config: { botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET, apiUrl: fake.apiUrl },
    bot,
    http,
    logger: h.deps.logger,
    clock: h.clock,
    store: h.store,
  });
  await adapter.start();
  const { url } = await http.listen(0, '127.0.0.1');
  h.senders.slack = adapter.sender;
  for (const person of PEOPLE) {
    const key = person === 'mallory' ? OTHER_KEY : DEMO_KEY;
    await h.store.keys.put(`slack:${TEAM}:${CAST[person].id}`, {
      apiKey: key,
      keyPrefix: key.slice(0, 12),
      teamId: person === 'mallory' ? 'other' : 'team',
      teamName: person === 'mallory' ? 'Other Team' : 'Team',
    });
  }

  const ephemerals = new Map<string, Ephemeral>();
  /** Buttons as last read, by message, action and value: a stale click sends the element it was. */
  const seen = new Map<string, SlackButton>();
  const forms = new Map<string, OpenForm>();
  /** chat.postEphemeral calls that answered an interaction (not notices). */
  const answers = new Set<number>();
  let counter = 0;
  const next = () => ++counter;
  const ts = () => `${Math.floor(h.clock.now() / 1000)}.${String(900_000 + next()).padStart(6, '0')}`;
  const trigger = () => `${7_216_000_000_000 + next()}.7141926741253.${randomBytes(16).toString('hex')}`;

  const refString = (ref: MessageRef): string =>
    ref.kind === 'channel' ? `slack-msg:${ref.channel}:${ref.ts}` : `slack-eph:${ref.key}`;
  function parseRef(s: string | undefined): MessageRef | undefined {
    const m = /^slack-msg:([A-Z0-9]+):(\d+\.\d+)$/.exec(s ?? '');
    if (m) return { kind: 'channel', channel: m[1] as string, ts: m[2] as string };
    const e = /^slack-eph:(.+)$/.exec(s ?? '');
    return e ? { kind: 'ephemeral', key: e[1] as string } : undefined;
  }

  /** Reads a message as shown, remembering its buttons' elements for later clicks. */
  function show(blocks: unknown[] | undefined, text: string, ref: MessageRef): ShownCard {
    const read = readMessage(blocks, text);
    const message = refString(ref);
    for (const b of read.buttons) seen.set(`${message}\n${b.action}\n${b.value}`, b);
    return shownCard(read, message);
  }
  const channelMessage = (channel: string, messageTs: string): FakeMessage | undefined =>
    fake.messages.find((m) => m.channel === channel && m.ts === messageTs);

  async function send(payload: string, contentType: string): Promise<string> {
    const timestamp = Math.floor(Date.now() / 1000);
    const res = await fetch(`${url}/slack/events`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        'x-slack-request-timestamp': String(timestamp),
        'x-slack-signature': sign(payload, timestamp),
        'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      },
      body: payload,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`Bolt answered ${res.status}: ${text}`);
    return text;
  }
  const interaction = (payload: Record<string, unknown>) =>
    send(`payload=${encodeURIComponent(JSON.stringify(payload))}`, 'application/x-www-form-urlencoded');

  /** What Slack shows after a response_url body: an ephemeral, a channel message, or a replaced one. */
  function fromResponse(
    body: Record<string, unknown>,
    where: { channel: string; clicked?: MessageRef },
  ): Reply {
    const blocks = (body.blocks as unknown[] | undefined) ?? [];
    const text = String(body.text ?? '');
    const clicked = where.clicked;
    if (body.replace_original === true && clicked) {
      if (clicked.kind === 'ephemeral') {
        const e = ephemerals.get(clicked.key);
        if (e) Object.assign(e, { text, blocks });
        return { kind: 'update', card: show(blocks, text, clicked) };
      }
      const m = channelMessage(clicked.channel, clicked.ts);
      if (m) {
        Object.assign(m, { text, blocks });
        m.history.push({ text, blocks });
      }
      return { kind: 'update', card: show(blocks, text, clicked) };
    }
    if (body.response_type === 'in_channel') {
      const posted: FakeMessage = { channel: where.channel, ts: ts(), text, blocks, history: [] };
      posted.history.push({ text, blocks });
      fake.messages.push(posted);
      return {
        kind: 'message',
        visibility: 'channel',
        card: show(blocks, text, { kind: 'channel', channel: posted.channel, ts: posted.ts }),
      };
    }
    const key = `r${next()}`;
    ephemerals.set(key, { channel: where.channel, ts: ts(), text, blocks });
    return { kind: 'message', visibility: 'ephemeral', card: show(blocks, text, { kind: 'ephemeral', key }) };
  }

  function formFrom(view: Record<string, unknown>, clicked?: string): ShownForm {
    const viewId = `V${String(next()).padStart(10, '0')}`;
    const state = `${viewId}:${String(view.private_metadata ?? '')}`;
    forms.set(state, { view, viewId, ...(clicked ? { clicked } : {}) });
    const inputs = ((view.blocks as { type: string; block_id?: string }[] | undefined) ?? [])
      .filter((b) => b.type === 'input' && b.block_id)
      .map((b) => b.block_id as string);
    return { id: String(view.callback_id ?? ''), state, inputs, ...(clicked ? { message: clicked } : {}) };
  }

  /**
   * Waits for what the interaction produced: a body on its response_url, a modal opened with its trigger,
   * an ephemeral posted to the user (no response_url), or nothing once the core is done and idle.
   */
  async function outcome(o: {
    as: Member;
    channel: string;
    responseUrl?: string;
    responsesBefore: number;
    triggerId?: string;
    callsBefore: number;
    coreBefore: number;
    clicked?: MessageRef;
  }): Promise<Reply> {
    const deadline = Date.now() + 15_000;
    let idleSince: number | undefined;
    for (;;) {
      const response = o.responseUrl ? fake.responsesTo(o.responseUrl)[o.responsesBefore] : undefined;
      if (response) return settle(response, o);
      // Only a modal Slack accepted is open; a refused trigger leads to the "Open form" offer instead.
      const modal = o.triggerId
        ? fake.callsOf('views.open').find((c) => c.args.trigger_id === o.triggerId && c.outcome?.ok)
        : undefined;
      if (modal) {
        await h.flush();
        const clicked = o.clicked ? refString(o.clicked) : undefined;
        return { kind: 'form', form: formFrom(modal.args.view as Record<string, unknown>, clicked) };
      }
      const direct = fake.calls.findIndex(
        (c, i) =>
          i >= o.callsBefore &&
          c.method === 'chat.postEphemeral' &&
          c.args.user === o.as.id &&
          c.args.channel === o.channel,
      );
      if (direct >= 0) {
        answers.add(direct);
        const args = fake.calls[direct]?.args as Record<string, unknown>;
        return settle({ response_type: 'ephemeral', text: args.text, blocks: args.blocks }, o);
      }
      if (core.started > o.coreBefore && core.running === 0) {
        idleSince ??= Date.now();
        if (Date.now() - idleSince > 200) {
          await h.flush();
          return { kind: 'none' };
        }
      } else idleSince = undefined;
      if (Date.now() > deadline) throw new Error('Slack: no answer to the interaction within 15 s');
      // real-time-ok: polls real HTTP traffic until an answer arrives ("none" once the core has been idle 200 ms)
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** A file the answer uploaded to the member's DM (`--csv`), read back from the fake, once. */
  const filesSeen = new Set<string>();
  function withUpload(reply: Reply, member: string): Reply {
    const upload = fake.uploads.find((u) => u.channel === member && !filesSeen.has(u.id));
    if (!upload || !reply.card) return reply;
    filesSeen.add(upload.id);
    return { ...reply, card: { ...reply.card, file: upload.content ?? '' } };
  }

  async function settle(
    body: Record<string, unknown>,
    o: { as: Member; channel: string; clicked?: MessageRef },
  ): Promise<Reply> {
    await h.flush();
    const reply = withUpload(fromResponse(body, o), o.as.id);
    // Answered late (the trigger had expired): the ephemeral offers "Open form"; a person presses it.
    const open = (body.blocks as { type: string; elements?: Record<string, unknown>[] }[] | undefined)
      ?.flatMap((b) => (b.type === 'actions' ? (b.elements ?? []) : []))
      .find((e) => String(e.action_id).startsWith('-open-form|'));
    if (!open || reply.card?.message === undefined) return reply;
    const ref = parseRef(reply.card.message) as MessageRef;
    return press(o.as, o.channel, ref, {
      action: '-open-form',
      actionId: String(open.action_id),
      value: String(open.value),
      label: 'Open form',
    });
  }

  /** A block_actions payload for `button` on `ref` (a message in `channel`), as Slack sends it. */
  async function press(
    as: Member,
    channel: string,
    ref: MessageRef | undefined,
    button: SlackButton,
  ): Promise<Reply> {
    const responseUrl = fake.responseUrl();
    const triggerId = trigger();
    const stored = ref?.kind === 'channel' ? channelMessage(channel, ref.ts) : undefined;
    const payload = blockActions({
      member: as,
      channel,
      messageTs: ref?.kind === 'ephemeral' ? (ephemerals.get(ref.key)?.ts ?? ts()) : (ref?.ts ?? ts()),
      ...(stored ? { message: { text: stored.text, blocks: stored.blocks ?? [] } } : {}),
      ephemeral: ref?.kind === 'ephemeral',
      button,
      responseUrl,
      triggerId,
      actionTs: `${Math.floor(Date.now() / 1000)}.${String(next()).padStart(6, '0')}`,
    });
    const before = { callsBefore: fake.calls.length, coreBefore: core.started };
    await interaction(payload);
    return outcome({
      as,
      channel,
      responseUrl,
      responsesBefore: 0,
      triggerId,
      ...before,
      ...(ref ? { clicked: ref } : {}),
    });
  }

  return {
    name: 'Slack (real Bolt over signed HTTP, fake Web API)',
    fake,
    ids: Object.fromEntries(PEOPLE.map((p) => [p, CAST[p].id])) as Record<Person, string>,
    mention: (p) => `<@${CAST[p].id}>`,
    groups: {
      mention: () => `<!subteam^${REVIEWERS.id}>`,
      async breakLookup() {
        // Slack stops answering usergroups.list, and the map read before ages past its 5 minutes.
        fake.fail('usergroups.list', { error: 'internal_error' }, 10_000);
        await h.advance(GROUPS_TTL_MS + 1);
      },
    },

    async run(as, text) {
      const { user, channel } = actorOf(as);
      const member = CAST[user];
      const responseUrl = fake.responseUrl();
      const triggerId = trigger();
      const before = { callsBefore: fake.calls.length, coreBefore: core.started };
      await send(
        slashCommand({ member, channel, text, responseUrl, triggerId }),
        'application/x-www-form-urlencoded',
      );
      return outcome({
        as: member,
        channel: CHANNELS[channel].id,
        responseUrl,
        responsesBefore: 0,
        triggerId,
        ...before,
      });
    },

    async click(as, b: ButtonRef) {
      const { user, channel } = actorOf(as);
      const here = CHANNELS[channel].id;
      let ref = parseRef(b.message);
      // A button of a message in another channel, clicked from here, is a forged payload: the value is
      // replayed on a message of this channel that never carried it.
      if (ref?.kind === 'channel' && ref.channel !== here) ref = undefined;
      if (ref?.kind === 'ephemeral' && ephemerals.get(ref.key)?.channel !== here) ref = undefined;
      const blocks =
        ref?.kind === 'channel'
          ? channelMessage(ref.channel, ref.ts)?.blocks
          : ref
            ? ephemerals.get(ref.key)?.blocks
            : undefined;
      const now = blocks ? readMessage(blocks).buttons : [];
      const element =
        now.find((e) => e.action === b.action && e.value === b.value) ??
        (b.message ? seen.get(`${b.message}\n${b.action}\n${b.value}`) : undefined) ??
        ({ action: b.action, actionId: `${b.action}|0`, value: b.value, label: b.label } as SlackButton);
      return await press(CAST[user], here, ref, element);
    },

    async submit(as, form, values) {
      const { user } = actorOf(as);
      const member = CAST[user];
      const open = forms.get(form.state);
      if (!open) throw new Error(`no modal open for ${form.id}`);
      const view = open.view;
      const payload = viewSubmission({
        member,
        view,
        viewId: open.viewId,
        values,
        triggerId: trigger(),
      });
      const origin = JSON.parse(String(view.private_metadata ?? '{}')) as {
        c?: string;
        r?: string;
        m?: string;
      };
      const channel = origin.c ?? CHANNELS.main.id;
      const responsesBefore = origin.r ? fake.responsesTo(origin.r).length : 0;
      const before = { callsBefore: fake.calls.length, coreBefore: core.started };
      const acked = await interaction(payload);
      const ack = acked ? (JSON.parse(acked) as Record<string, unknown>) : undefined;
      if (ack?.response_action === 'errors')
        return { kind: 'form-errors', errors: ack.errors as Record<string, string> };
      if (ack?.response_action === 'update')
        return { kind: 'form', form: formFrom(ack.view as Record<string, unknown>, open.clicked) };
      const clicked = origin.m ? ({ kind: 'channel', channel, ts: origin.m } as const) : undefined;
      return outcome({
        as: member,
        channel,
        ...(origin.r ? { responseUrl: origin.r } : {}),
        responsesBefore,
        ...before,
        ...(clicked ? { clicked } : {}),
      });
    },

    cards(channel = 'main') {
      const id = CHANNELS[channel].id;
      return Promise.resolve(
        fake.messages
          .filter((m) => m.channel === id && !m.thread_ts)
          .map((m) => show(m.blocks, m.text, { kind: 'channel', channel: m.channel, ts: m.ts })),
      );
    },

    replies(card) {
      const ref = parseRef(card.message);
      if (ref?.kind !== 'channel') return Promise.resolve([]);
      return Promise.resolve(
        fake.messages
          .filter((m) => m.channel === ref.channel && m.thread_ts === ref.ts && m.ts !== ref.ts)
          .map((m) => {
            const card = show(m.blocks, m.text, { kind: 'channel', channel: m.channel, ts: m.ts });
            // Who it pings leads the message's text (the blocks name nobody): shown above the card.
            const pings = /^(?:<[@!][^>]+>\s*)+/.exec(m.text)?.[0].trim();
            return pings ? { ...card, text: `${pings}\n${card.text}` } : card;
          }),
      );
    },

    reload(_as, message) {
      const ref = parseRef(message);
      if (ref?.kind === 'channel') {
        const m = channelMessage(ref.channel, ref.ts);
        return Promise.resolve(m ? show(m.blocks, m.text, ref) : undefined);
      }
      const e = ref ? ephemerals.get(ref.key) : undefined;
      return Promise.resolve(e && ref ? show(e.blocks, e.text, ref) : undefined);
    },

    notices(user) {
      const id = CAST[user].id;
      const out: ShownCard[] = [];
      fake.calls.forEach((c, i) => {
        const toUser =
          (c.method === 'chat.postEphemeral' && c.args.user === id && !answers.has(i)) ||
          (c.method === 'chat.postMessage' && c.args.channel === id);
        if (!toUser) return;
        const key = `n${i}`;
        const blocks = (c.args.blocks as unknown[] | undefined) ?? [];
        const text = String(c.args.text ?? '');
        if (!ephemerals.has(key))
          ephemerals.set(key, { channel: String(c.args.channel), ts: ts(), text, blocks });
        out.push(show(blocks, text, { kind: 'ephemeral', key }));
      });
      return Promise.resolve(out);
    },

    advance: (ms) => h.advance(ms),
    now: () => h.clock.now(),
    fixtures: harnessFixtures(h),
    async close() {
      await adapter.stop();
      await http.close();
      await h.close();
      await fake.close();
    },
  };
}
