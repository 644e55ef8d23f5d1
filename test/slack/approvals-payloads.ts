/**
 * The Slack cast of the approval scenarios and the payloads Slack sends for them: slash commands (with
 * `should_escape`), `block_actions` for a button on a message, `view_submission` of a modal with values.
 * Built from the recorded fixtures in `fixtures/`, so every field Slack sends is there.
 */
import type { Channel, Person } from '../core/approvals/driver.js';
import type { SlackButton } from './approvals-read.js';
import { fixture, slackEscape } from './world.js';

export const TEAM = 'T0001';
export const CHANNELS: Record<Channel, { id: string; name: string }> = {
  main: { id: 'C0VIDEOS', name: 'video-team' },
  other: { id: 'C0LAUNCH', name: 'launches' },
  // alice's direct message with the app, in the same workspace (Slack names it `directmessage`).
  dm: { id: 'D0ALICEDM', name: 'directmessage' },
};
export const REVIEWERS = { id: 'S0REVIEWERS', handle: 'reviewers', name: 'Reviewers' };

export interface Member {
  id: string;
  /** The @handle (`user_name` in payloads). */
  handle: string;
  /** Display name (users.info), what cards say. */
  name: string;
  tz: string;
  /** Home workspace: mallory's is another one (Slack Connect). */
  team: string;
  /** A workspace admin (`users.info` is_admin). */
  admin?: boolean;
}

// Slack profile zones; bob and dave set their own with `tz` in the scenarios, which wins.
export const CAST: Record<Person, Member> = {
  alice: { id: 'U01ALICE', handle: 'alice', name: 'Alice', tz: 'UTC', team: TEAM, admin: true },
  bob: { id: 'U02BOB', handle: 'bob', name: 'Bob', tz: 'Europe/Paris', team: TEAM },
  carol: { id: 'U03CAROL', handle: 'carol', name: 'Carol', tz: 'UTC', team: TEAM },
  dave: { id: 'U04DAVE', handle: 'dave', name: 'Dave', tz: 'Europe/Berlin', team: TEAM },
  erin: { id: 'U05ERIN', handle: 'erin', name: 'Erin', tz: 'UTC', team: TEAM },
  // An admin of her own organisation (users.info says so), which makes her nobody's admin here.
  mallory: { id: 'U06MALLORY', handle: 'mallory', name: 'Mallory', tz: 'UTC', team: 'T0002', admin: true },
};
export const PEOPLE = Object.keys(CAST) as Person[];
const handleOf = new Map(Object.values(CAST).map((m) => [m.id, m.handle]));

/** Text as Slack sends it for `/reel` with should_escape: mentions `<@U1|handle>`, the rest escaped. */
export function slackCommandText(text: string): string {
  const out: string[] = [];
  let last = 0;
  for (const m of text.matchAll(/<@([UW][A-Z0-9]+)(?:\|[^>]*)?>|<!subteam\^([A-Z0-9]+)(?:\|[^>]*)?>/g)) {
    out.push(slackEscape(text.slice(last, m.index)));
    out.push(
      m[1]
        ? `<@${m[1]}|${handleOf.get(m[1]) ?? m[1].toLowerCase()}>`
        : `<!subteam^${m[2]}|@${m[2] === REVIEWERS.id ? REVIEWERS.handle : 'group'}>`,
    );
    last = m.index + m[0].length;
  }
  out.push(slackEscape(text.slice(last)));
  return out.join('');
}

const userObject = (m: Member) => ({ id: m.id, username: m.handle, name: m.handle, team_id: m.team });

/** `/reel <text>` typed by `member` in `channel`, form-encoded. */
export function slashCommand(o: {
  member: Member;
  channel: Channel;
  text: string;
  responseUrl: string;
  triggerId: string;
}): string {
  const payload = fixture<Record<string, string>>('slash-command.json');
  Object.assign(payload, {
    team_id: TEAM,
    channel_id: CHANNELS[o.channel].id,
    channel_name: CHANNELS[o.channel].name,
    user_id: o.member.id,
    user_name: o.member.handle,
    text: slackCommandText(o.text),
    response_url: o.responseUrl,
    trigger_id: o.triggerId,
  });
  return new URLSearchParams(payload).toString();
}

/**
 * A button press. On a channel message Slack sends the message as it stores it; on an ephemeral one only
 * the container (Slack keeps no copy).
 */
export function blockActions(o: {
  member: Member;
  channel: string;
  messageTs: string;
  /** The stored message, for a channel message; absent for an ephemeral one. */
  message?: { text: string; blocks: unknown[] };
  ephemeral: boolean;
  button: SlackButton;
  responseUrl: string;
  triggerId: string;
  actionTs: string;
}): Record<string, unknown> {
  const payload = fixture<Record<string, unknown>>('block-actions.json');
  delete payload.message;
  const channel = Object.values(CHANNELS).find((c) => c.id === o.channel) ?? { id: o.channel, name: '' };
  Object.assign(payload, {
    user: userObject(o.member),
    container: {
      type: 'message',
      message_ts: o.messageTs,
      channel_id: o.channel,
      is_ephemeral: o.ephemeral,
    },
    channel,
    ...(o.ephemeral
      ? {}
      : {
          message: {
            user: 'U0BOT',
            type: 'message',
            ts: o.messageTs,
            bot_id: 'B0BOT',
            app_id: 'A0REELBOT',
            text: o.message?.text ?? o.button.label,
            team: TEAM,
            blocks: o.message?.blocks ?? [],
          },
        }),
    response_url: o.responseUrl,
    trigger_id: o.triggerId,
    actions: [
      {
        type: 'button',
        action_id: o.button.actionId,
        block_id: o.button.blockId ?? 'Wq8/d',
        text: { type: 'plain_text', text: o.button.label, emoji: true },
        value: o.button.value,
        ...(o.button.style ? { style: o.button.style } : {}),
        action_ts: o.actionTs,
      },
    ],
  });
  return payload;
}

/** The submission of `view` (as views.open got it) with input values by block id. */
export function viewSubmission(o: {
  member: Member;
  view: Record<string, unknown>;
  viewId: string;
  values: Record<string, string>;
  triggerId: string;
}): Record<string, unknown> {
  const state: Record<string, Record<string, unknown>> = {};
  for (const block of (o.view.blocks ?? []) as {
    type: string;
    block_id?: string;
    element?: { type: string; action_id: string; initial_options?: { value: string }[] };
  }[]) {
    if (block.type !== 'input' || !block.block_id || !block.element) continue;
    const value = o.values[block.block_id];
    const chosen = value?.split(',') ?? block.element.initial_options?.map((x) => x.value) ?? [];
    state[block.block_id] = {
      [block.element.action_id]:
        block.element.type === 'multi_static_select'
          ? {
              type: 'multi_static_select',
              selected_options: chosen.map((v) => ({ text: { type: 'plain_text', text: v }, value: v })),
            }
          : block.element.type === 'static_select'
            ? {
                type: 'static_select',
                selected_option:
                  value === undefined ? null : { text: { type: 'plain_text', text: value }, value },
              }
            : { type: 'plain_text_input', value: value ?? null },
    };
  }
  const payload = fixture<Record<string, unknown> & { view: Record<string, unknown> }>(
    'view-submission.json',
  );
  Object.assign(payload, {
    user: userObject(o.member),
    trigger_id: o.triggerId,
    view: {
      ...payload.view,
      ...o.view,
      id: o.viewId,
      root_view_id: o.viewId,
      state: { values: state },
    },
  });
  return payload;
}
