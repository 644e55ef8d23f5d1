/**
 * The approval scenarios' driver on Discord: the real core, store, poller and outbox behind the REAL Discord
 * adapter and the REAL discord.js client, connected to the local fake Discord (REST + gateway on 127.0.0.1).
 *
 * People act the way Discord delivers it: INTERACTION_CREATE dispatched over the gateway — an application
 * command for a text command (`settings approvers <@1> <@2>` → `/reel channel settings key:approvers
 * value:<@1> <@2>`), a MESSAGE_COMPONENT interaction carrying the clicked button's `custom_id` and its
 * message, a MODAL_SUBMIT echoing the modal Discord was asked to open. What they see is read back from what
 * the fake recorded: interaction callbacks, webhook edits and follow-ups, channel messages POSTed and PATCHed
 * with the bot token, and direct messages (notices).
 *
 * Discord idioms are played out here, as a member would: a destructive button asks "are you sure?" first (the
 * driver clicks the confirmation); a form that cannot open as a modal (after a modal, or a deferral) arrives as
 * a button (the driver clicks it to open the modal). erin holds the `reviewers` role, so the group mention is
 * the role mention `<@&id>` and her member roles carry it.
 */
import { Writable } from 'node:stream';
import { parseCustomId } from '../../adapters/discord/custom-id.js';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { userAddress } from '../../src/core/ports/address.js';
import { createHttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/observability/logger.js';
import {
  type As,
  actorOf,
  type ButtonRef,
  type Channel,
  type DriverOptions,
  type Person,
  type Reply,
  type ScenarioDriver,
  type ShownForm,
} from '../core/approvals/driver.js';
import { harnessFixtures, OTHER_KEY, otherTeam } from '../core/approvals/fixtures.js';
import { createHarness, DEMO_KEY } from '../support/harness.js';
import {
  CAST,
  CHANNELS,
  commandData,
  modalComponents,
  payloadOf,
  REVIEWERS_ROLE,
  withoutMember,
} from './approvals-payloads.js';
import { currentCustomId, customIds, errorsOf, formOfModal, launcherOf, shownOf } from './approvals-read.js';
import { FakeDiscord, type FakeInteraction, type FakeMessage } from './fake-discord.js';
import { controlsIn, isV2 } from './read-message.js';
import { IDS, type Json, TOKEN } from './world.js';

const PEOPLE = Object.keys(CAST) as Person[];
const EPHEMERAL = 64;

export interface DiscordDriverOptions extends DriverOptions {
  /**
   * How long the adapter waits for the core before deferring (Discord's window is 3 s). The default lets the
   * core answer first; 0 defers every answer, so it arrives through the interaction's webhook instead.
   */
  deferAfterMs?: number;
}

/** A second server the app is in, with one channel; the cast are members of it too, alice its manager. */
export const SECOND_GUILD = { id: '1300000000000000900', channel: '1300000000000000910', name: 'partners' };

/** The scenario driver, plus a command typed in a channel of the second server (Discord-only checks). */
export interface DiscordScenarioDriver extends ScenarioDriver {
  runInSecondServer(user: Person, text: string): Promise<Reply>;
}

export async function createDiscordDriver(
  options: DiscordDriverOptions = {},
): Promise<DiscordScenarioDriver> {
  const deferAfterMs = options.deferAfterMs ?? 5_000;
  const h = await createHarness({
    platform: 'discord',
    teams: [otherTeam()],
    simulator: { profile: options.profile ?? 'spec' },
  });
  const fake = await new FakeDiscord({
    token: TOKEN,
    applicationId: IDS.app,
    guildId: IDS.guild,
    channelId: IDS.channel,
    roles: [{ id: REVIEWERS_ROLE, name: 'reviewers' }],
  }).start();
  const quiet = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const http = createHttpServer({
    logger: quiet,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
  });
  const adapter = createDiscordAdapter({
    config: { token: TOKEN, applicationId: IDS.app, apiUrl: fake.apiUrl, guildId: IDS.guild },
    bot: h.bot,
    http,
    store: h.store,
    logger: h.deps.logger,
    clock: h.clock,
    deferAfterMs,
  });
  // The outbox delivers long-lived cards and notices through the adapter's sender, to the fake.
  h.senders.discord = adapter.sender;
  await adapter.start();

  for (const person of PEOPLE) {
    const key = person === 'mallory' ? OTHER_KEY : DEMO_KEY;
    // Linked in the guild and in DMs (a DM has no guild: its addresses are under `@me`).
    for (const workspace of [IDS.guild, '@me'])
      await h.store.keys.put(userAddress('discord', workspace, CAST[person].id), {
        apiKey: key,
        keyPrefix: key.slice(0, 12),
        teamId: person === 'mallory' ? 'other' : 'team',
        teamName: person === 'mallory' ? 'Other Team' : 'Team',
      });
    // Discord does not share members' zones: each answered the one-click question with UTC (the zone the
    // other platforms' scenarios read by default); the question itself is tested in time-zone.e2e.test.ts.
    for (const workspace of [IDS.guild, '@me'])
      await h.store.users.setTimeZone(userAddress('discord', workspace, CAST[person].id), 'UTC');
  }
  /** Set by `groups.breakLookup()`: guild interactions arrive without their member (roles unknown). */
  let lookupBroken = false;
  const payloadFor = (kind: string, user: Person, channel: Channel): Json => {
    const payload = payloadOf(kind, user, channel);
    if (lookupBroken) withoutMember(payload);
    return payload;
  };

  /** Modals by the form read from them, for `submit`. */
  const modals = new WeakMap<ShownForm, FakeInteraction>();

  /** Dispatches an interaction over the gateway; resolves once its answer is complete and the outbox ran. */
  async function send(payload: Json): Promise<FakeInteraction> {
    const sentAt = Date.now();
    const record = fake.dispatchInteraction(payload);
    await fake.waitFor(() => record.callbacks.length > 0, 10_000);
    const first = record.callbacks[0] as Json;
    const deferred = Date.now() - sentAt >= deferAfterMs;
    // A deferred answer (or an early "nothing to say" to a command) follows through the interaction's webhook.
    if (first.type === 5 || (first.type === 6 && deferred)) {
      await fake.waitFor(() => record.events.length > 1, 30_000);
      if (record.events.includes('followup'))
        await fake.waitFor(() => record.events.includes('delete') || first.type === 6);
    }
    await h.flush();
    return record;
  }

  const message = (id: string | undefined): FakeMessage | undefined =>
    id ? fake.messages.get(id) : undefined;

  /** What the actor saw in answer to an interaction. */
  async function replyOf(record: FakeInteraction, as: As, submitted?: Json): Promise<Reply> {
    const first = record.callbacks[0] as Json;
    let shown: FakeMessage | undefined;
    let kind: 'message' | 'update' = 'message';
    switch (first.type) {
      case 9: {
        const form = formOfModal(first.data, record.sourceMessage);
        modals.set(form, record);
        return { kind: 'form', form };
      }
      case 7:
        return { kind: 'update', card: shownOf(message(record.sourceMessage) as FakeMessage) };
      case 4:
        shown = message(record.original);
        break;
      case 5:
      case 6: {
        const followUp = message(record.followups[0]);
        if (followUp) shown = followUp;
        else if (record.events.includes('edit')) {
          shown = message(record.original);
          if (first.type === 6) kind = 'update';
        }
        break;
      }
    }
    if (!shown || shown.deleted) return { kind: 'none' };
    const launcher = launcherOf(shown);
    if (launcher?.errors) return { kind: 'form-errors', errors: errorsOf(shown, submitted) };
    // Discord opens a modal only as the first answer: the form came as a button, which the member clicks.
    if (launcher) return replyOf(await clickOn(as, shown, launcher.customId), as);
    if (kind === 'update') return { kind, card: shownOf(shown) };
    return {
      kind,
      visibility: shown.flags & EPHEMERAL ? 'ephemeral' : 'channel',
      card: shownOf(shown),
    };
  }

  /** A MESSAGE_COMPONENT interaction: `customId` clicked on `on` by the actor, from the actor's channel. */
  function clickOn(as: As, on: FakeMessage, customId: string): Promise<FakeInteraction> {
    const { user, channel } = actorOf(as);
    const payload = payloadFor('button', user, channel);
    payload.message = fake.view(on);
    payload.data = { component_type: 2, custom_id: customId, id: 1 };
    return send(payload);
  }

  return {
    name: 'Discord (discord.js over the fake gateway)',
    mention: (p) => `<@${CAST[p].id}>`,
    groups: {
      mention: () => `<@&${REVIEWERS_ROLE}>`,
      breakLookup() {
        lookupBroken = true;
        return Promise.resolve();
      },
    },

    async run(as, text) {
      const { user, channel } = actorOf(as);
      const payload = payloadFor('chat-input', user, channel);
      payload.data = commandData(fake, h.bot.commands, text);
      return replyOf(await send(payload), as);
    },

    async runInSecondServer(user, text) {
      const payload = payloadFor('chat-input', user, 'main');
      payload.guild_id = SECOND_GUILD.id;
      payload.channel_id = SECOND_GUILD.channel;
      payload.channel = {
        ...payload.channel,
        id: SECOND_GUILD.channel,
        guild_id: SECOND_GUILD.id,
        name: SECOND_GUILD.name,
      };
      payload.data = commandData(fake, h.bot.commands, text);
      return replyOf(await send(payload), user);
    },

    async click(as, b: ButtonRef) {
      const shownOn = message(b.message);
      const live = shownOn && !shownOn.deleted ? shownOn : undefined;
      // The button as the message carries it now; else the id it had (a stale view of the message, as a
      // member clicking before the edit arrived sends), else the id a forger would write.
      const customId = (live && currentCustomId(live, b)) ?? customIds.get(b) ?? `r|${b.action}|${b.value}`;
      // Discord sends a click with the message it sits on, from the actor's channel. A button of another
      // channel's message clicked "here", or a click naming no message, can only be a tampered payload: the
      // former keeps its message, the latter rides on the newest message of the actor's channel.
      const on = live ?? fake.channelMessages(CHANNELS[actorOf(as).channel].id).at(-1);
      if (!on) throw new Error(`no message to click ${b.action} on`);
      const record = await clickOn(as, on, customId);
      // A destructive button first asks privately (a follow-up; its card stays this interaction's original);
      // the member confirms with its danger button.
      const clicked = parseCustomId(customId);
      if (clicked?.kind === 'confirm') await fake.waitFor(() => record.followups.length > 0, 10_000);
      const ask = clicked?.kind === 'confirm' ? message(record.followups[0]) : undefined;
      if (clicked?.kind === 'confirm' && (record.callbacks[0] as Json).type === 6 && ask) {
        const confirm = controlsIn(ask)
          .map((c) => String(c.custom_id ?? ''))
          .find((id) => {
            const parsed = parseCustomId(id);
            return (
              parsed?.kind === 'action' && parsed.action === clicked.action && parsed.value === clicked.value
            );
          });
        if (confirm) return replyOf(await clickOn(as, ask, confirm), as);
      }
      return replyOf(record, as);
    },

    async submit(as, form, values) {
      const opened =
        modals.get(form) ??
        [...fake.interactions.values()].reverse().find((i) => {
          const first = i.callbacks[0] as Json | undefined;
          if (first?.type !== 9) return false;
          const f = formOfModal(first.data);
          return f.id === form.id && f.state === form.state;
        });
      if (!opened) throw new Error(`no modal of form ${form.id} was opened`);
      const modal = (opened.callbacks[0] as Json).data as Json;
      const { user, channel } = actorOf(as);
      const payload = payloadFor('modal-submit', user, channel);
      // A modal opened from a button comes back with that button's message.
      const source = message(opened.sourceMessage);
      if (source) payload.message = fake.view(source);
      payload.data = { custom_id: modal.custom_id, components: modalComponents(modal, values) };
      return replyOf(await send(payload), as, modal);
    },

    cards(channel = 'main') {
      return Promise.resolve(
        fake
          .channelMessages(CHANNELS[channel].id)
          .filter((m) => m.author.id === IDS.app && (m.embeds.length > 0 || isV2(m)))
          .map(shownOf),
      );
    },

    replies(card) {
      // A card's thread is a channel of its own, with the card's id.
      const thread = card.message ? fake.channelMessages(card.message) : [];
      return Promise.resolve(thread.filter((m) => m.author.id === IDS.app).map(shownOf));
    },

    reload(_as, id) {
      const shown = message(id);
      return Promise.resolve(shown && !shown.deleted ? shownOf(shown) : undefined);
    },

    async notices(user) {
      // Notices are direct messages: the DM channel with the member, opened the way the bot opens it.
      const res = await fetch(`${fake.apiUrl}/v10/users/@me/channels`, {
        method: 'POST',
        headers: { authorization: `Bot ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ recipient_id: CAST[user].id }),
      });
      const dm = (await res.json()) as { id: string };
      return fake.channelMessages(dm.id).map(shownOf);
    },

    advance: (ms) => h.advance(ms),
    now: () => h.clock.now(),
    fixtures: harnessFixtures(h),

    async close() {
      await adapter.stop();
      await http.close();
      await fake.close();
      await h.close();
    },
  };
}
