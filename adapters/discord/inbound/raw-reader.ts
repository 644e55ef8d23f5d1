/**
 * Discord's interaction JSON, as HTTP interactions bring it, checked field by field by hand. This runs
 * between the signature check and the first answer, where Discord waits, so it is plain `typeof` checks
 * rather than a schema library (docs/performance.md, "The acknowledgement paths"). It checks what the
 * reader uses and keeps the rest of the objects it was given, as a tolerant reader does (DESIGN §6). A body
 * that is not an interaction throws `BadInteraction`, naming the first field that is wrong.
 */
import type { OptionNode } from './options.js';

export class BadInteraction extends Error {
  override readonly name = 'BadInteraction';
}

type Json = Record<string, unknown>;

export interface RawUser {
  id: string;
  username: string;
  global_name?: string | null | undefined;
}

export interface RawModalField {
  type: number;
  custom_id?: string | undefined;
  value?: string | null | undefined;
  values?: string[] | undefined;
}

export interface RawMessage {
  id: string;
  flags?: number | undefined;
  embeds?: ({ title?: string | undefined } & Json)[] | undefined;
  components?: unknown[] | undefined;
  attachments?: ({ id: string; filename: string } & Json)[] | undefined;
}

export interface RawData extends Json {
  name?: string | undefined;
  options?: OptionNode[] | undefined;
  custom_id?: string | undefined;
  values?: string[] | undefined;
  components?:
    | { type: number; components?: RawModalField[] | undefined; component?: RawModalField | undefined }[]
    | undefined;
}

export interface RawInteraction {
  type: number;
  id: string;
  application_id: string;
  token: string;
  guild_id?: string | undefined;
  channel_id?: string | undefined;
  channel?: ({ id: string } & Json) | undefined;
  member?:
    | ({
        user: RawUser;
        roles: string[];
        nick?: string | null | undefined;
        permissions?: string | undefined;
      } & Json)
    | undefined;
  user?: RawUser | undefined;
  message?: RawMessage | undefined;
  data?: RawData | undefined;
}

const wrong = (at: string, expected: string): never => {
  throw new BadInteraction(`${at}: expected ${expected}`);
};

function object(value: unknown, at: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return wrong(at, 'an object');
  return value as Json;
}

const textItem = (item: unknown, at: string): string =>
  typeof item === 'string' ? item : wrong(at, 'a string');

/** The fields of one object at `at` (a path for messages, e.g. `interaction.member.user`). */
function fields(value: unknown, at: string) {
  const o = object(value, at);
  const here = (key: string) => `${at}.${key}`;
  const text = (key: string): string => textItem(o[key], here(key));
  const number = (key: string): number =>
    typeof o[key] === 'number' ? o[key] : wrong(here(key), 'a number');
  const list = <T>(key: string, each: (item: unknown, at: string) => T): T[] => {
    const items = o[key];
    if (!Array.isArray(items)) return wrong(here(key), 'a list');
    return items.map((item, i) => each(item, `${here(key)}[${i}]`));
  };
  /** Absent stays absent; anything else must read as `read` reads it. */
  const optional =
    <T>(read: (key: string) => T) =>
    (key: string): T | undefined =>
      o[key] === undefined ? undefined : read(key);
  return {
    all: o,
    text,
    number,
    list,
    optionalText: optional(text),
    optionalNumber: optional(number),
    /** Discord's `?: string | null` fields. */
    nullableText: (key: string) => (o[key] === null ? null : optional(text)(key)),
    optionalList: <T>(key: string, each: (item: unknown, at: string) => T) =>
      o[key] === undefined ? undefined : list(key, each),
    /** An object field, read by `read` at its own path. */
    optionalObject: <T>(key: string, read: (value: unknown, at: string) => T) =>
      o[key] === undefined ? undefined : read(o[key], here(key)),
  };
}

function user(value: unknown, at: string): RawUser {
  const f = fields(value, at);
  return { id: f.text('id'), username: f.text('username'), global_name: f.nullableText('global_name') };
}

function optionNode(value: unknown, at: string): OptionNode {
  const f = fields(value, at);
  const focused = f.all.focused;
  if (focused !== undefined && typeof focused !== 'boolean') wrong(`${at}.focused`, 'true or false');
  return {
    type: f.number('type'),
    name: f.text('name'),
    value: f.all.value,
    focused: focused as boolean | undefined,
    options: f.optionalList('options', optionNode),
  };
}

function modalField(value: unknown, at: string): RawModalField {
  const f = fields(value, at);
  return {
    type: f.number('type'),
    custom_id: f.optionalText('custom_id'),
    value: f.nullableText('value'),
    values: f.optionalList('values', textItem),
  };
}

function message(value: unknown, at: string): RawMessage {
  const f = fields(value, at);
  return {
    id: f.text('id'),
    flags: f.optionalNumber('flags'),
    embeds: f.optionalList('embeds', (item, here) => {
      const embed = fields(item, here);
      return { ...embed.all, title: embed.optionalText('title') };
    }),
    components: f.optionalList('components', (item) => item),
    attachments: f.optionalList('attachments', (item, here) => {
      const file = fields(item, here);
      return { ...file.all, id: file.text('id'), filename: file.text('filename') };
    }),
  };
}

function modalRow(value: unknown, at: string) {
  const f = fields(value, at);
  return {
    type: f.number('type'),
    components: f.optionalList('components', modalField),
    component: f.optionalObject('component', modalField),
  };
}

function data(value: unknown, at: string): RawData {
  const f = fields(value, at);
  return {
    ...f.all,
    name: f.optionalText('name'),
    options: f.optionalList('options', optionNode),
    custom_id: f.optionalText('custom_id'),
    values: f.optionalList('values', textItem),
    components: f.optionalList('components', modalRow),
  };
}

function member(value: unknown, at: string): NonNullable<RawInteraction['member']> {
  const f = fields(value, at);
  return {
    ...f.all,
    user: f.optionalObject('user', user) ?? wrong(`${at}.user`, 'an object'),
    roles: f.list('roles', textItem),
    nick: f.nullableText('nick'),
    permissions: f.optionalText('permissions'),
  };
}

/** Reads Discord's interaction JSON; throws `BadInteraction` when it is not one. */
export function readRawInteraction(json: unknown): RawInteraction {
  const f = fields(json, 'interaction');
  return {
    type: f.number('type'),
    id: f.text('id'),
    application_id: f.text('application_id'),
    token: f.text('token'),
    guild_id: f.optionalText('guild_id'),
    channel_id: f.optionalText('channel_id'),
    channel: f.optionalObject('channel', (value, at) => {
      const channel = fields(value, at);
      return { ...channel.all, id: channel.text('id') };
    }),
    member: f.optionalObject('member', member),
    user: f.optionalObject('user', user),
    message: f.optionalObject('message', message),
    data: f.optionalObject('data', data),
  };
}
