/**
 * The generic "driver" the approval scenarios run on: act as a person (command text, click, form), read
 * what the channel shows, move time, and look at the video service's side. Each chat surface implements
 * it — the core harness (`core-driver.ts`), the playground over HTTP (`playground-driver.ts`), and later
 * the Slack and Discord suites through their fake platforms — so one table of scenarios proves them all.
 *
 * The cast every driver provides (each linked to an API key):
 * - alice, bob, carol, dave: members of the main team (the demo key);
 * - erin: main team too, and a member of the group `reviewers`;
 * - mallory: a member of ANOTHER team (her own key), in the same channels.
 * Channels: `main` (the default) and `other`, two channels of the one workspace, and `dm`: a direct message
 * with the app in the same workspace (alice's in the scenarios; on Discord a DM has no guild).
 * alice is a workspace admin by the platform's own account (Slack admin, Discord Manage Server, the demo's
 * first member); nobody else is.
 */
import type { SimulatorProfile } from '../../../src/simulator/index.js';

export type Person = 'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'mallory';
export type Channel = 'main' | 'other' | 'dm';
/** Who acts, and where (default `main`). */
export type As = Person | { user: Person; channel: Channel };

/** A button as the platform shows it; `message` is the message carrying it, when the platform needs it. */
export interface ButtonRef {
  action: string;
  value: string;
  label: string;
  message?: string;
}

/** A card as shown (latest content): plain text of title, body, fields, sections and footer. */
export interface ShownCard {
  title: string;
  /** Everything readable on the card, flattened, markdown/markup removed as far as the surface allows. */
  text: string;
  buttons: ButtonRef[];
  image?: string;
  /** The message id/address on the surface. */
  message?: string;
  /** The file sent with the card (`--csv` exports), as its text, read back from where the surface put it. */
  file?: string;
}

export interface ShownForm {
  id: string;
  state: string;
  /** Input ids. */
  inputs: string[];
  message?: string;
}

/** What the actor saw in answer to a command, click or form submission. */
export interface Reply {
  kind: 'message' | 'update' | 'form' | 'form-errors' | 'none';
  visibility?: 'ephemeral' | 'channel';
  card?: ShownCard;
  form?: ShownForm;
  errors?: Record<string, string>;
}

export interface Fixtures {
  /**
   * A generated and rendered video of `team` (default main) with YouTube post details set (and TikTok's and
   * Instagram's captions with `captions`); its id.
   */
  renderedVideo(name: string, options?: { team?: 'main' | 'other'; captions?: boolean }): Promise<string>;
  /** The simulator knob: POST /posts to these platforms is refused by the platform (none: every one goes out). */
  failPublishOn(platforms: string[]): void;
  /** Every post the service published, all teams. */
  publishedPosts(): { videoId: string; platform: string }[];
  /** Every post the service published, with the title it went out with (read from the metadata at post time). */
  publishedTitles(): { videoId: string; platform: string; title: string }[];
  /** Scheduled posts of one video, as the service's calendar lists them (main team). */
  scheduledPosts(videoId: string): Promise<{ platform: string; status: string; scheduledTime: string }[]>;
  /** The main team's spends (negative ledger entries), oldest first. */
  spends(): number[];
  /** Every series write the service received (POST /series, PATCH /series/{id}), oldest first, with its body. */
  seriesWrites(): { method: 'POST' | 'PATCH'; body: Record<string, unknown> }[];
  /** The JSON bodies the service read off the wire for `POST <path>` (`/posts`, `/posts/schedule`), oldest first. */
  sentBodies(path: '/posts' | '/posts/schedule'): Record<string, unknown>[];
  /** The label the service gives the main team's account `authId` (GET /accounts). */
  accountLabel(authId: string): Promise<string | undefined>;
  /** Seeds the main team's past posts (the simulator's `seedPostHistory`), each with its views. */
  seedPostHistory(posts: { platform: 'youtube'; at: number; views: number; title: string }[]): void;
}

export interface ScenarioDriver {
  readonly name: string;
  /** Text that mentions a person in a command (`@bob`, `<@U123>`, `<@123>`). */
  mention(user: Person): string;
  /**
   * Group/role support: the mention of group `reviewers`, of which erin (only) is a member. `breakLookup`
   * makes membership unverifiable from now on (Slack: `usergroups.list` fails and the cached map ages past
   * 5 minutes; Discord: interactions arrive without their member; core/playground: the adapter says so).
   */
  readonly groups: { mention(group: 'reviewers'): string; breakLookup(): Promise<void> };
  run(as: As, text: string): Promise<Reply>;
  click(as: As, button: ButtonRef): Promise<Reply>;
  submit(as: As, form: ShownForm, values: Record<string, string>): Promise<Reply>;
  /** Top-level cards posted in a channel (not private ones, not thread replies), oldest first. */
  cards(channel?: Channel): Promise<ShownCard[]>;
  /** The replies in the thread of a top-level card (by its `message`), oldest first, mentions as shown. */
  replies(card: ShownCard): Promise<ShownCard[]>;
  /**
   * A message as `as` sees it when they look again (the playground: the page fetched anew), by the `message`
   * of a card or button they were shown; undefined when it is gone.
   */
  reload(as: As, message: string): Promise<ShownCard | undefined>;
  /** Private notices the bot sent `user` on its own (not answers to their commands/clicks), oldest first. */
  notices(user: Person): Promise<ShownCard[]>;
  /** Moves virtual time, runs the poller once and delivers the outbox. */
  advance(ms: number): Promise<void>;
  now(): number;
  readonly fixtures: Fixtures;
  close(): Promise<void>;
}

/** How a driver is built: the simulator profile its harness serves (default `spec`). */
export interface DriverOptions {
  profile?: SimulatorProfile;
}

export const actorOf = (as: As): { user: Person; channel: Channel } =>
  typeof as === 'string' ? { user: as, channel: 'main' } : as;
