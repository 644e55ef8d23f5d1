/**
 * The approval scenarios' cast on Discord and the INTERACTION_CREATE payloads they send, shaped from the
 * recorded fixtures (`fixtures/*.json`): who (member with roles), where (guild channel), and what — a
 * `/reel …` application command whose option tree is typed from what the fake has registered, a button click
 * carrying the message it sits on, a modal submission echoing the modal's components.
 */
import { readFileSync } from 'node:fs';
import { MORE_OPTION, routeOf } from '../../adapters/discord/commands.js';
import type { CommandSpec } from '../../src/core/parse/command-spec.js';
import { createRegistry, parseCommandText } from '../../src/core/parse/parse-command.js';
import type { Channel, Person } from '../core/approvals/driver.js';
import { type FakeDiscord, snowflake } from './fake-discord.js';
import { IDS, type Json } from './world.js';

export const OTHER_CHANNEL = '1300000000000000210';
export const REVIEWERS_ROLE = '1300000000000000410';
export const DM_CHANNEL = '1300000000000000290';
export const CHANNELS: Record<Channel, { id: string; name: string }> = {
  main: { id: IDS.channel, name: 'video-team' },
  other: { id: OTHER_CHANNEL, name: 'launches' },
  // A direct message with the app: no guild.
  dm: { id: DM_CHANNEL, name: '' },
};
/** Permissions of a plain member (View Channel, Send Messages): no Manage Server. */
const MEMBER_PERMISSIONS = String(0x400 | 0x800);

interface Member {
  id: string;
  username: string;
  globalName: string;
  roles: string[];
}

const member = (n: number, name: Person, roles: string[] = []): Member => ({
  id: `13000000000000005${String(n).padStart(2, '0')}`,
  username: name,
  globalName: name.charAt(0).toUpperCase() + name.slice(1),
  roles,
});

/**
 * Everyone is a member of the one guild (a Discord channel belongs to one guild, and the scenarios have
 * mallory act in the same channels); mallory's difference is her team: her own API key.
 */
export const CAST: Record<Person, Member> = {
  alice: member(1, 'alice'),
  bob: member(2, 'bob'),
  carol: member(3, 'carol'),
  dave: member(4, 'dave'),
  erin: member(5, 'erin', [REVIEWERS_ROLE]),
  mallory: member(6, 'mallory'),
};

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Json;

/** A fixture as `person` sends it from `channel`, with a fresh id and token. */
export function payloadOf(kind: string, person: Person, channel: Channel): Json {
  const payload = fixture(kind);
  const who = CAST[person];
  payload.id = snowflake();
  payload.token = `token-${payload.id}-${Math.random().toString(36).slice(2)}`;
  payload.member.user = {
    ...payload.member.user,
    id: who.id,
    username: who.username,
    global_name: who.globalName,
  };
  payload.member.roles = [...who.roles];
  // alice manages the server (the fixture's member has every permission); the others are plain members.
  if (person !== 'alice') payload.member.permissions = MEMBER_PERMISSIONS;
  payload.channel_id = CHANNELS[channel].id;
  payload.channel = { ...payload.channel, ...CHANNELS[channel] };
  if (channel === 'dm') asDirectMessage(payload);
  return payload;
}

/** A DM interaction, as Discord sends it: `user` instead of `member`, no guild, a DM channel, context 1. */
function asDirectMessage(payload: Json): void {
  payload.user = payload.member.user;
  delete payload.member;
  delete payload.guild_id;
  delete payload.guild;
  delete payload.guild_locale;
  payload.context = 1;
  payload.channel = { id: DM_CHANNEL, type: 1, flags: 0, last_message_id: null, recipients: [payload.user] };
}

/** A guild interaction without its member (roles unknown), the user given instead. */
export function withoutMember(payload: Json): void {
  if (!payload.member) return;
  payload.user = payload.member.user;
  delete payload.member;
}

// Discord's option types.
const SUBCOMMAND = 1;
const SUBCOMMAND_GROUP = 2;
const INTEGER = 4;
const BOOLEAN = 5;
const NUMBER = 10;

/**
 * The `data` of a `/reel …` interaction for a scenario's text command: the text is read with the core's own
 * grammar (so `schedule <id> youtube tomorrow 9am` names the same options a member fills in on Discord), then
 * each option goes where the adapter registered it, typed as registered (integers as numbers, booleans as
 * booleans). Text a member could not enter on Discord (unknown command, hidden option) throws.
 */
export function commandData(fake: FakeDiscord, commands: readonly CommandSpec[], text: string): Json {
  const parsed = parseCommandText(text, createRegistry(commands));
  if (!parsed.ok) throw new Error(`“${text}” is no /reel command a member could send: ${parsed.error.code}`);
  const route = routeOf(parsed.value.spec);
  const root = (fake.commands.get(`guild:${IDS.guild}`) ?? []).find((c) => c.name === 'reel');
  if (!root) throw new Error('/reel is not registered');
  const chain: Json[] = [];
  let level: Json[] = root.options ?? [];
  for (const name of [route.group, route.sub].filter((n): n is string => n !== undefined)) {
    const node = level.find((o) => o.name === name);
    if (!node) throw new Error(`/reel has no ${name} for “${text}”`);
    chain.push(node);
    level = node.options ?? [];
  }
  const discordName = new Map([...route.options].map(([discord, core]) => [core, discord]));
  // Advanced options are typed as flags in the command's `more` option, as a member would.
  const more: string[] = [];
  const leaves = Object.entries(parsed.value.raw).flatMap(([core, value]) => {
    if (value === undefined) return [];
    if (route.advanced.has(core)) {
      const text = Array.isArray(value) ? value.join(' ') : String(value);
      more.push(`--${core} "${text.replace(/"/g, '\\"')}"`);
      return [];
    }
    const name = discordName.get(core);
    const spec = name ? level.find((o) => o.name === name) : undefined;
    if (!spec) throw new Error(`/reel ${chain.map((c) => c.name).join(' ')} has no option for ${core}`);
    return [{ name: spec.name, type: spec.type, value: typed(spec.type, value) }];
  });
  if (more.length > 0) {
    const spec = level.find((o) => o.name === MORE_OPTION);
    if (!spec) throw new Error(`/reel ${chain.map((c) => c.name).join(' ')} has no ${MORE_OPTION} option`);
    leaves.push({ name: spec.name, type: spec.type, value: more.join(' ') });
  }
  let tree: Json[] = leaves;
  for (const node of [...chain].reverse()) {
    tree = [
      {
        name: node.name,
        type: node.type === SUBCOMMAND_GROUP ? SUBCOMMAND_GROUP : SUBCOMMAND,
        ...(tree.length ? { options: tree } : {}),
      },
    ];
  }
  return { id: root.id, name: 'reel', type: 1, options: tree };
}

function typed(type: number, value: string | number | boolean | string[]): string | number | boolean {
  const text = Array.isArray(value) ? value.join(' ') : value;
  if (type === INTEGER || type === NUMBER) return Number(text);
  if (type === BOOLEAN) return text === true || /^(true|yes|on)$/i.test(String(text));
  return String(text);
}

/** The `data.components` of a modal submission: each input of the recorded modal with the given value. */
export function modalComponents(modal: Json, values: Record<string, string>): Json[] {
  return ((modal.components ?? []) as Json[]).map((c, i) => {
    if (c.type !== 18) return { type: c.type, id: i + 1 };
    const inner = c.component as Json;
    const given = values[inner.custom_id];
    const component =
      inner.type === 3
        ? {
            type: 3,
            id: 100 + i,
            custom_id: inner.custom_id,
            values:
              given !== undefined
                ? inner.max_values > 1
                  ? given.split(',')
                  : [given]
                : ((inner.options ?? []) as Json[]).filter((o) => o.default).map((o) => o.value),
          }
        : { type: 4, id: 100 + i, custom_id: inner.custom_id, value: String(given ?? inner.value ?? '') };
    return { type: 18, id: i + 1, component };
  });
}
