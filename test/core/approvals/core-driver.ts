/**
 * The scenario driver on the core harness, as a Slack workspace would call the core (so group mentions and
 * `memberOf` are exercised): requests go straight to `Bot`, cards are what the outbox delivered to the fake
 * chat platform.
 */

import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import { formatMentions } from '../../../src/core/people/mentions.js';
import type { Card, Control, Response } from '../../../src/core/text/cards.js';
import { typedCommand } from '../../../src/core/text/command-ref.js';
import { restore, shield } from '../../../src/core/text/text.js';
import type { PostedMessage } from '../../support/fake-chat.js';
import { cardText, createHarness, DEMO_KEY } from '../../support/harness.js';
import { typedBy } from '../../support/mentions-as-typed.js';
import type { TransactionGuard } from '../../support/transaction-guard.js';
import {
  type As,
  actorOf,
  type ButtonRef,
  type Channel,
  type DriverOptions,
  type Person,
  type Reply,
  type ScenarioDriver,
  type ShownCard,
} from './driver.js';
import { harnessFixtures, OTHER_KEY, otherTeam } from './fixtures.js';

const PEOPLE: Person[] = ['alice', 'bob', 'carol', 'dave', 'erin', 'mallory'];
const slackId = (p: Person): string => `U${p.toUpperCase()}`;
const GROUP = 'SREVIEWERS';

export function buttonsOf(card: Card, message?: string): ButtonRef[] {
  const controls: Control[] = [
    ...(card.controls ?? []),
    ...(card.sections ?? []).flatMap((s) => s.controls ?? []),
  ];
  return controls.flatMap((c) =>
    c.kind === 'button'
      ? [{ action: c.action, value: c.value, label: c.label, ...(message ? { message } : {}) }]
      : [],
  );
}

/**
 * Card text as a Slack reader sees it: the core's mention tokens in Slack's syntax (`<@UBOB>`,
 * `<!subteam^S1>`) and escaped characters as themselves; the markdown markers stay.
 */
function slackText(text: string): string {
  const { text: held, pieces } = shield(text);
  return restore(held, pieces, (piece) => {
    if (piece.kind === 'char') return piece.char;
    if (piece.kind === 'command') return `\`${typedCommand(piece.command, '/reel')}\``;
    return piece.target.kind === 'group' ? `<!subteam^${piece.target.id}>` : `<@${piece.target.id}>`;
  });
}

export function shown(card: Card, message?: string): ShownCard {
  // Whom the card pings, above it, as the adapters show them.
  const pings = card.notify?.length ? `${formatMentions(card.notify)}\n` : '';
  return {
    title: slackText(card.title),
    text: slackText(`${pings}${cardText(card)}`),
    buttons: buttonsOf(card, message),
    ...(card.image ? { image: card.image.url } : {}),
    ...(message ? { message } : {}),
    ...(card.attachment ? { file: card.attachment.content } : {}),
  };
}

export function replyOf(r: Response): Reply {
  switch (r.kind) {
    case 'message':
      return { kind: 'message', visibility: r.visibility, card: shown(r.card) };
    case 'update':
      return { kind: 'update', card: shown(r.card) };
    case 'form':
      return {
        kind: 'form',
        form: { id: r.form.id, state: r.form.state, inputs: r.form.inputs.map((i) => i.id) },
      };
    case 'form-errors':
      return { kind: 'form-errors', errors: r.errors };
    case 'none':
      return { kind: 'none' };
  }
}

/** `guard`: the harness's transactions and network calls watched (test/support/transaction-guard.ts). */
export async function createCoreDriver(
  options: DriverOptions & { guard?: TransactionGuard } = {},
): Promise<ScenarioDriver> {
  const h = await createHarness({
    platform: 'slack',
    teams: [otherTeam()],
    simulator: { profile: options.profile ?? 'spec' },
    ...(options.guard ? { guard: options.guard } : {}),
  });
  const conversations: Record<Channel, string> = {
    main: h.conversation,
    other: 'slack:W1:C2',
    dm: 'slack:W1:D1',
  };
  /** Set by `groups.breakLookup()`: the adapter can no longer tell group membership. */
  let lookupBroken = false;
  const addresses = new Map<Person, string>();
  for (const person of PEOPLE) {
    const address = `slack:W1:${slackId(person)}`;
    addresses.set(person, address);
    const key = person === 'mallory' ? OTHER_KEY : DEMO_KEY;
    await h.store.keys.put(address, {
      apiKey: key,
      keyPrefix: key.slice(0, 12),
      teamId: 't',
      teamName: 'Team',
    });
  }
  const req = (as: As): RequestInfo => {
    const { user, channel } = actorOf(as);
    return {
      platform: 'slack',
      user: addresses.get(user) as string,
      userName: user[0]?.toUpperCase() + user.slice(1),
      conversation: conversations[channel],
      ...(user === 'erin' && !lookupBroken ? { memberOf: [`slack-group:${GROUP}`] } : {}),
      ...(lookupBroken ? { membershipUnverified: true } : {}),
      ...(user === 'alice' ? { isWorkspaceAdmin: true } : {}),
    };
  };
  /**
   * The answers each person was shown, by a message id of the driver's own: an adapter shows a `message`
   * answer as a new message and an `update` as an edit of the clicked one; this is that, without an adapter.
   */
  const answers = new Map<string, Card>();
  const settle = async (r: Response, clicked?: string): Promise<Reply> => {
    await h.flush();
    if (r.kind === 'update' && clicked && answers.has(clicked)) {
      answers.set(clicked, r.card);
      return { kind: 'update', card: shown(r.card, clicked) };
    }
    if (r.kind !== 'message') return replyOf(r);
    const id = `core-answer:${answers.size + 1}`;
    answers.set(id, r.card);
    return { kind: 'message', visibility: r.visibility, card: shown(r.card, id) };
  };
  const toShown = (p: PostedMessage): ShownCard => shown(p.card, p.message);

  return {
    name: 'core (Slack-shaped requests)',
    mention: (p) => `<@${slackId(p)}>`,
    groups: {
      mention: () => `<!subteam^${GROUP}|@reviewers>`,
      breakLookup() {
        lookupBroken = true;
        return Promise.resolve();
      },
    },
    run: async (as, text) => settle(await h.bot.handleText(typedBy(req(as), text), text)),
    click: async (as, b) =>
      settle(
        await h.bot.handleAction(
          { ...req(as), ...(b.message && !answers.has(b.message) ? { message: b.message } : {}) },
          { action: b.action, value: b.value },
        ),
        b.message,
      ),
    submit: async (as, form, values) =>
      settle(await h.bot.handleForm(req(as), { formId: form.id, state: form.state, values })),
    cards(channel = 'main') {
      return Promise.resolve(
        h.chat.channelMessages.filter((p) => p.conversation === conversations[channel]).map(toShown),
      );
    },
    replies(card) {
      return Promise.resolve(h.chat.repliesTo(card.message ?? '').map(toShown));
    },
    reload(_as, message) {
      const answer = answers.get(message);
      if (answer) return Promise.resolve(shown(answer, message));
      const posted = h.chat.channelMessages.find((p) => p.message === message);
      return Promise.resolve(posted ? toShown(posted) : undefined);
    },
    notices(user) {
      return Promise.resolve(
        h.chat.notices.filter((n) => n.user === addresses.get(user)).map((n) => shown(n.card)),
      );
    },
    advance: (ms) => h.advance(ms),
    now: () => h.clock.now(),
    fixtures: harnessFixtures(h),
    close: () => h.close(),
  };
}
