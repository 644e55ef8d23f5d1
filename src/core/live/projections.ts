/**
 * One living card per video: the video has ONE card state (`Store['cardStates']`, `video:<id>`),
 * and each conversation showing it holds a projection: a card row `video:<id>@<conversation>` with its own
 * message on its own platform. Every change merges into the state and is queued to every projection in the
 * same transaction (the sender coalesces edits per card), so a pick on Discord shows on the Slack card too.
 * Milestones go into each projection's thread (per its channel's threading), once per projection.
 *
 * Projections are bounded (`MAX_PROJECTIONS`): showing the video in one conversation too many edits the
 * oldest to say where the live card went, and it stops following.
 */

import { dashboardChanged, refreshHomes } from '../home/home-refresh.js';
import { CHAT_PLATFORMS, DM_WORKSPACE, decodeAddress, platformOf } from '../ports/address.js';
import type { CardRecord, ConversationAddress, Store, Watch } from '../ports/index.js';
import type { Card } from '../text/cards.js';
import { channel, code, command, joinText, md } from '../text/text.js';
import { postToChannel, type Unpostable, videoCardKey } from './live-card.js';
import { type Ping, planPings, sendDirectPings, withMentions } from './pings.js';
import {
  renderVideoCard,
  type VideoCardModel,
  type VideoCardPatch,
  type VideoEffects,
  videoCardModelOf,
} from './video-card.js';

/** Most conversations one video's card is live in at once. */
export const MAX_PROJECTIONS = 20;

/** What a projection row keeps as its model: which video, since when, and where it went if it stopped. */
interface ProjectionModel {
  projectionOf: string;
  since: number;
  movedTo?: ConversationAddress;
}

const subjectOf = (videoId: string): string => `video:${videoId}`;
const prefixOf = (videoId: string): string => `video:${videoId}@`;

/** `video:<id>@<conversation>`: the id is greedy, so the LAST `@<platform>:` ends it. */
const CARD_KEY = new RegExp(`^video:(.+)@(?:${CHAT_PLATFORMS.join('|')}):`);

/**
 * The video a card key belongs to (`video:<id>@<conversation>`), if it is a video card. The id is what lies
 * before the LAST `@<platform>:` (an id the service made may hold an `@`; a conversation holds `@me`).
 */
export function videoOfCardKey(key: string): string | undefined {
  const m = CARD_KEY.exec(key);
  return m?.[1];
}

const projectionOf = (record: CardRecord): Partial<ProjectionModel> =>
  record.model as Partial<ProjectionModel>;
const sinceOf = (record: CardRecord): number => projectionOf(record).since ?? record.updatedAt;

/** The conversations showing the video live, oldest first. */
export async function projectionsOf(store: Store, videoId: string): Promise<CardRecord[]> {
  return (
    (await store.cards.withPrefix(prefixOf(videoId)))
      // Exactly this video's: the prefix of `x` also starts the keys of a video `x@y`.
      .filter((r) => r.key === prefixOf(videoId) + r.conversation && projectionOf(r).movedTo === undefined)
      .sort((a, b) => sinceOf(a) - sinceOf(b) || a.key.localeCompare(b.key))
  );
}

/** The video's one card state, if it was ever shown. */
export async function videoState(store: Store, videoId: string): Promise<VideoCardModel | undefined> {
  const state = await store.cardStates.get(subjectOf(videoId));
  return state ? videoCardModelOf(state) : undefined;
}

/** The card state of the video a watch follows (through its card key), if shown. */
export async function watchedVideoState(store: Store, watch: Watch): Promise<VideoCardModel | undefined> {
  const videoId = watch.cardKey ? videoOfCardKey(watch.cardKey) : undefined;
  return videoId ? await videoState(store, videoId) : undefined;
}

/** Same team: the same workspace of the same platform, and not Discord's shared direct-message space. */
function sameTeam(a: ConversationAddress, b: ConversationAddress): boolean {
  const x = decodeAddress(a);
  const y = decodeAddress(b);
  return x.platform === y.platform && x.workspace === y.workspace && x.workspace !== DM_WORKSPACE;
}

/** The card as one projection shows it: the state, plus where else it is live for this team. */
function projectionCard(model: VideoCardModel, self: ConversationAddress, live: CardRecord[]): Card {
  const card = renderVideoCard(model);
  const elsewhere = live
    .filter((p) => p.conversation !== self && sameTeam(p.conversation, self))
    .map((p) => channel(p.conversation));
  if (elsewhere.length > 0 && model.deletedBy === undefined)
    card.context = md`${card.context ?? md``} · also live in ${joinText(elsewhere, ', ')}`;
  return card;
}

/** Re-renders every live projection from `model` and queues its edit, named by `dedupeKey` per projection. */
async function refresh(
  store: Store,
  model: VideoCardModel,
  options: { dedupeKey: string; skip?: string; homes?: boolean },
): Promise<void> {
  const live = await projectionsOf(store, model.videoId);
  for (const p of live) {
    const card = projectionCard(model, p.conversation, live);
    // A card this change leaves as it was (another team's conversation was added) is not edited at all.
    if (p.key !== options.skip && JSON.stringify(card) === JSON.stringify(p.card)) continue;
    await store.cards.put(p.key, { conversation: p.conversation, card });
    if (p.key === options.skip) continue;
    await store.outbox.enqueue(
      platformOf(p.conversation),
      { op: 'update-card', cardKey: p.key },
      `${p.key}|${options.dedupeKey}`,
    );
  }
  // Members' dashboards list the video too (not its progress).
  if (options.homes !== false) {
    const where = live.map((p) => p.conversation);
    await refreshHomes(store, { where, cause: `video:${model.videoId}|${options.dedupeKey}` });
  }
}

const asRecord = (model: VideoCardModel): Record<string, unknown> =>
  model as unknown as Record<string, unknown>;

/** `model` with every `undefined` field dropped (a patch's `undefined` clears a field). */
function cleaned(model: VideoCardModel): VideoCardModel {
  for (const k of Object.keys(model) as (keyof VideoCardModel)[]) if (model[k] === undefined) delete model[k];
  return model;
}

/**
 * The oldest projection, when one too many would be live, stops following: its card is edited to say where
 * the live card went (named only for the same team) and how to bring it back.
 */
async function retireOldest(store: Store, input: { videoId: string; to: ConversationAddress; now: number }) {
  const live = await projectionsOf(store, input.videoId);
  for (const old of live.slice(0, Math.max(0, live.length - MAX_PROJECTIONS))) {
    const where = sameTeam(old.conversation, input.to) ? channel(input.to) : md`another conversation`;
    const card: Card = {
      title: old.card.title,
      tone: 'neutral',
      text: md`This card stopped following: the video is live in ${where} now. Run ${command('status', [input.videoId])} to bring it back here.`,
      context: md`id ${code(input.videoId)}`,
    };
    const model: ProjectionModel = { projectionOf: input.videoId, since: sinceOf(old), movedTo: input.to };
    await store.cards.put(old.key, { conversation: old.conversation, card, model: { ...model } });
    await store.outbox.enqueue(
      platformOf(old.conversation),
      { op: 'update-card', cardKey: old.key },
      `${old.key}|moved:${input.now}`,
    );
  }
}

/**
 * Shows the video's live card in `conversation`: writes the state (`model`, or keeps the stored one when
 * `keepState` and it exists), adds a projection here when there is none (posting it, or bringing back a card
 * that had stopped following), retires the oldest beyond the limit, and refreshes every projection. Call
 * inside `store.transaction`. Returns the projection's key and whether a post was queued.
 */
export async function showVideo(
  store: Store,
  input: {
    model: VideoCardModel;
    conversation: ConversationAddress;
    now: number;
    keepState?: boolean;
    onUnpostable?: Unpostable;
  },
): Promise<{ key: string; posted: boolean; model: VideoCardModel }> {
  const videoId = input.model.videoId;
  const stored = input.keepState ? await videoState(store, videoId) : undefined;
  const model = stored ?? cleaned({ ...input.model });
  await store.cardStates.put(subjectOf(videoId), asRecord(model));
  const key = videoCardKey(videoId, input.conversation);
  const existing = await store.cards.get(key);
  const live = existing !== undefined && projectionOf(existing).movedTo === undefined;
  let posted = false;
  if (!live) {
    const own: ProjectionModel = { projectionOf: videoId, since: input.now };
    await store.cards.put(key, {
      conversation: input.conversation,
      card: renderVideoCard(model),
      model: { ...own },
    });
    if (existing?.message) {
      // A card that had stopped following comes back to life in place: its message is edited.
      await store.outbox.enqueue(
        platformOf(input.conversation),
        { op: 'update-card', cardKey: key },
        `${key}|back:${input.now}`,
      );
    } else {
      posted = await store.outbox.enqueue(
        platformOf(input.conversation),
        {
          op: 'post-card',
          cardKey: key,
          ...(input.onUnpostable ? { onUnpostable: input.onUnpostable } : {}),
        },
        existing ? `${key}:post:${input.now}` : `${key}:post`,
      );
    }
    await retireOldest(store, { videoId, to: input.conversation, now: input.now });
  }
  await refresh(store, model, {
    dedupeKey: `shown:${input.conversation}:${input.now}`,
    ...(live ? {} : { skip: key }),
  });
  return { key, posted, model };
}

/**
 * Merges a change into the video's one state and queues it to every projection. `key` is any card key of the
 * video (`video:<id>@…`) or its id. Call inside a transaction with the state change; `dedupeKey` names the
 * change. Undefined when the video was never shown.
 */
export async function updateVideoCard(
  store: Store,
  keyOrId: string,
  { patch, dedupeKey }: { patch: VideoCardPatch; dedupeKey: string },
): Promise<VideoCardModel | undefined> {
  const videoId = videoOfCardKey(keyOrId) ?? keyOrId;
  const state = await videoState(store, videoId);
  if (!state) return undefined;
  const model = cleaned({ ...state, ...patch } as VideoCardModel);
  await store.cardStates.put(subjectOf(videoId), asRecord(model));
  await refresh(store, model, { dedupeKey, homes: dashboardChanged(state, model) });
  return model;
}

/**
 * A milestone said in every conversation showing the video: a reply in each projection's thread when that
 * channel has threading on, else in the channel; once per projection (`dedupeKey` names the milestone).
 * False when no conversation shows the video.
 */
export async function replyToVideo(
  store: Store,
  keyOrId: string,
  input: { card: Card; dedupeKey: string; pings?: readonly Ping[] },
): Promise<boolean> {
  const videoId = videoOfCardKey(keyOrId) ?? keyOrId;
  const live = await projectionsOf(store, videoId);
  if (live.length === 0) return false;
  const plan = await planPings(store, { pings: input.pings ?? [], shown: live.map((p) => p.conversation) });
  for (const p of live) {
    const threaded = (await store.settings.get(p.conversation)).threading;
    await store.outbox.enqueue(
      platformOf(p.conversation),
      {
        op: 'reply',
        conversation: p.conversation,
        card: withMentions(input.card, plan, p.conversation),
        ...(threaded ? { threadOfCard: p.key } : {}),
      },
      `${input.dedupeKey}@${p.key}`,
    );
  }
  await sendDirectPings(store, { plan, card: input.card, dedupeKey: input.dedupeKey });
  return true;
}

/**
 * A milestone about a video: in every conversation showing it (`replyToVideo`), else in `conversation` (where
 * its job was started), with its pings either way.
 */
export async function sayAboutVideo(
  store: Store,
  input: {
    videoId: string | undefined;
    conversation: ConversationAddress;
    card: Card;
    dedupeKey: string;
    pings?: readonly Ping[];
  },
): Promise<void> {
  if (input.videoId && (await replyToVideo(store, input.videoId, input))) return;
  const plan = await planPings(store, { pings: input.pings ?? [], shown: [input.conversation] });
  const card = withMentions(input.card, plan, input.conversation);
  await postToChannel(store, { conversation: input.conversation, card, dedupeKey: input.dedupeKey });
  await sendDirectPings(store, { plan, card: input.card, dedupeKey: input.dedupeKey });
}

/**
 * Applies a watcher's effects in the poller's transaction: the change to the video's one state (all its
 * projections), and the milestone in each; with no projection, the milestone goes to the watch's conversation.
 */
export async function applyVideoEffects(store: Store, watch: Watch, effects: VideoEffects): Promise<void> {
  const videoId = watch.cardKey ? videoOfCardKey(watch.cardKey) : undefined;
  if (videoId && effects.patch && effects.dedupe)
    await updateVideoCard(store, videoId, { patch: effects.patch, dedupeKey: effects.dedupe });
  if (!effects.reply) return;
  const { card, dedupe, pings } = effects.reply;
  const conversation = watch.conversation;
  await sayAboutVideo(store, {
    videoId,
    conversation,
    card,
    dedupeKey: dedupe,
    ...(pings ? { pings } : {}),
  });
}
