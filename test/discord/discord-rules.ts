/**
 * Discord's documented payload rules, written out independently of the adapter (which has its own
 * `limits.ts`), so the fake server refuses what Discord would refuse and the tests catch a renderer that
 * drifts. Each function lists the problems it finds; an empty list means Discord would accept it.
 */

type Json = Record<string, unknown>;
const NAME = /^[-_\p{L}\p{N}]{1,32}$/u;
const len = (v: unknown) => (typeof v === 'string' ? [...v].length : 0);
const arr = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

// ---- application commands --------------------------------------------------------------------------------

const SUBCOMMAND = 1;
const GROUP = 2;
const STRING = 3;
const INTEGER = 4;
const NUMBER = 10;

export function commandProblems(command: Json): string[] {
  const problems: string[] = [];
  const at = (path: string, problem: string) => problems.push(`${path}: ${problem}`);
  const checkNamed = (o: Json, path: string) => {
    if (typeof o.name !== 'string' || !NAME.test(o.name) || o.name !== o.name.toLowerCase())
      at(path, `bad name ${String(o.name)}`);
    if (len(o.description) < 1 || len(o.description) > 100)
      at(path, `description length ${len(o.description)}`);
  };
  const checkOptions = (options: Json[], path: string, level: 'root' | 'group' | 'sub') => {
    if (options.length > 25) at(path, `${options.length} options (max 25)`);
    const names = new Set<string>();
    let optionalSeen = false;
    const kinds = new Set<string>();
    for (const o of options) {
      const p = `${path}.${String(o.name)}`;
      checkNamed(o, p);
      if (names.has(String(o.name))) at(p, 'duplicate name');
      names.add(String(o.name));
      const type = Number(o.type);
      if (type === SUBCOMMAND || type === GROUP) {
        kinds.add('sub');
        if (level === 'sub') at(p, 'subcommand inside a subcommand');
        if (type === GROUP && level !== 'root') at(p, 'group below the top level');
        if (type === GROUP) {
          const children = arr(o.options);
          if (children.length === 0) at(p, 'empty group');
          if (children.some((c) => Number(c.type) !== SUBCOMMAND)) at(p, 'group holds a non-subcommand');
          checkOptions(children, p, 'group');
        } else checkOptions(arr(o.options), p, 'sub');
        continue;
      }
      kinds.add('basic');
      if (o.required === true && optionalSeen) at(p, 'required option after an optional one');
      if (o.required !== true) optionalSeen = true;
      const choices = arr(o.choices);
      if (choices.length > 25) at(p, `${choices.length} choices (max 25)`);
      if (choices.length > 0 && o.autocomplete === true) at(p, 'choices and autocomplete together');
      for (const c of choices) {
        if (len(c.name) < 1 || len(c.name) > 100) at(p, `choice name length ${len(c.name)}`);
        if (typeof c.value === 'string' && len(c.value) > 100) at(p, 'choice value too long');
      }
      if (o.autocomplete === true && ![STRING, INTEGER, NUMBER].includes(type))
        at(p, 'autocomplete on a non-text type');
      if (o.max_length !== undefined && (Number(o.max_length) < 1 || Number(o.max_length) > 6000))
        at(p, 'max_length out of range');
    }
    if (kinds.size > 1) at(path, 'subcommands mixed with options');
  };
  // A message command (type 3): a name of 1–32 characters (spaces and capitals allowed), no description,
  // no options (https://discord.com/developers/docs/interactions/application-commands#message-commands).
  if (Number(command.type) === 3) {
    if (len(command.name) < 1 || len(command.name) > 32) at(String(command.name), 'bad message command name');
    if (len(command.description) !== 0) at(String(command.name), 'a message command has no description');
    if (arr(command.options).length > 0) at(String(command.name), 'a message command has no options');
    return problems;
  }
  checkNamed(command, String(command.name));
  checkOptions(arr(command.options), String(command.name), 'root');
  const total = commandChars(command);
  if (total > 8000) at(String(command.name), `${total} characters (max 8000)`);
  return problems;
}

/** name + description + choice names and values, the whole tree (Discord's 8000-character rule). */
export function commandChars(o: Json): number {
  let total = len(o.name) + len(o.description);
  for (const c of arr(o.choices)) total += len(c.name) + len(String(c.value));
  for (const child of arr(o.options)) total += commandChars(child);
  return total;
}

// ---- messages --------------------------------------------------------------------------------------------

export function messageProblems(body: Json): string[] {
  if (Number(body.flags ?? 0) & IS_COMPONENTS_V2) return componentsV2Problems(body);
  const problems: string[] = [];
  if (len(body.content) > 2000) problems.push('content over 2000');
  const embeds = arr(body.embeds);
  if (embeds.length > 10) problems.push(`${embeds.length} embeds (max 10)`);
  let total = 0;
  embeds.forEach((e, i) => {
    const p = `embeds[${i}]`;
    if (len(e.title) > 256) problems.push(`${p}.title ${len(e.title)}`);
    if (len(e.description) > 4096) problems.push(`${p}.description ${len(e.description)}`);
    const fields = arr(e.fields);
    if (fields.length > 25) problems.push(`${p}: ${fields.length} fields`);
    for (const f of fields) {
      if (len(f.name) < 1 || len(f.name) > 256) problems.push(`${p}.field name ${len(f.name)}`);
      if (len(f.value) < 1 || len(f.value) > 1024) problems.push(`${p}.field value ${len(f.value)}`);
      total += len(f.name) + len(f.value);
    }
    const footer = e.footer as Json | undefined;
    if (footer && len(footer.text) > 2048) problems.push(`${p}.footer ${len(footer.text)}`);
    for (const image of [e.image, e.thumbnail] as (Json | undefined)[]) {
      if (image && !/^https?:\/\//.test(String(image.url)))
        problems.push(`${p}: image url ${String(image.url)}`);
    }
    if (e.url !== undefined && !/^https?:\/\//.test(String(e.url))) problems.push(`${p}.url`);
    total += len(e.title) + len(e.description) + (footer ? len(footer.text) : 0);
  });
  if (total > 6000) problems.push(`embeds total ${total} (max 6000)`);
  const rows = arr(body.components);
  if (rows.length > 5) problems.push(`${rows.length} action rows (max 5)`);
  const ids = new Set<string>();
  rows.forEach((row, r) => {
    if (row.type !== 1) problems.push(`row ${r} is not an action row`);
    const children = arr(row.components);
    const selects = children.filter((c) => c.type === 3);
    if (selects.length > 0 && children.length > 1) problems.push(`row ${r}: a select shares its row`);
    if (children.length < 1 || children.length > 5) problems.push(`row ${r}: ${children.length} components`);
    for (const c of children) {
      if (c.type === 2) {
        if (len(c.label) > 80) problems.push(`button label ${len(c.label)}`);
        if (c.style === 5) {
          if (c.custom_id !== undefined || !/^https?:\/\//.test(String(c.url)))
            problems.push('bad link button');
          continue;
        }
        if (![1, 2, 3, 4].includes(Number(c.style))) problems.push(`button style ${String(c.style)}`);
      } else if (c.type === 3) {
        const options = arr(c.options);
        if (options.length < 1 || options.length > 25) problems.push(`select with ${options.length} options`);
        for (const o of options) {
          if (len(o.label) < 1 || len(o.label) > 100 || len(o.value) < 1 || len(o.value) > 100)
            problems.push('select option size');
        }
        if (len(c.placeholder) > 150) problems.push('select placeholder');
      } else problems.push(`unexpected component type ${String(c.type)} in a message`);
      const id = String(c.custom_id ?? '');
      if (len(id) < 1 || len(id) > 100) problems.push(`custom_id length ${len(id)}`);
      if (ids.has(id)) problems.push(`duplicate custom_id ${id}`);
      ids.add(id);
    }
  });
  if (body.nonce !== undefined && len(String(body.nonce)) > 25) problems.push('nonce over 25');
  return problems;
}

// ---- Components V2 messages (flag IS_COMPONENTS_V2) -----------------------------------------------------

export const IS_COMPONENTS_V2 = 1 << 15;
const TOP_LEVEL = new Set([1, 9, 10, 12, 13, 14, 17]);
const IN_CONTAINER = new Set([1, 9, 10, 12, 13, 14]);
const mediaUrl = (v: unknown) => /^(https?:\/\/|attachment:\/\/)\S+$/.test(String(v));

/**
 * A V2 message: only components (no content, embeds, poll or stickers), at most 40 of them counted nested, at
 * most 4000 characters across the text displays; containers hold rows, texts, sections, galleries, separators
 * and files (no container in a container); a section has one to three text displays and a button or thumbnail
 * as its accessory; a gallery one to ten items; buttons and selects follow the action-row rules.
 */
export function componentsV2Problems(body: Json): string[] {
  const problems: string[] = [];
  if (body.content !== undefined && body.content !== null) problems.push('content with IS_COMPONENTS_V2');
  if (arr(body.embeds).length > 0) problems.push('embeds with IS_COMPONENTS_V2');
  if (body.poll !== undefined && body.poll !== null) problems.push('poll with IS_COMPONENTS_V2');
  if (arr(body.sticker_ids).length > 0) problems.push('stickers with IS_COMPONENTS_V2');
  const top = arr(body.components);
  if (top.length < 1) problems.push('no components');
  const state = { count: 0, text: 0, ids: new Set<string>() };
  for (const c of top) {
    if (!TOP_LEVEL.has(Number(c.type))) problems.push(`top-level component type ${String(c.type)}`);
    checkV2(c, { problems, state });
  }
  if (state.count > 40) problems.push(`${state.count} components (max 40)`);
  if (state.text > 4000) problems.push(`${state.text} characters of text displays (max 4000)`);
  return problems;
}

interface V2Walk {
  problems: string[];
  state: { count: number; text: number; ids: Set<string> };
}

function checkV2(c: Json, walk: V2Walk): void {
  const { problems, state } = walk;
  state.count += 1;
  switch (Number(c.type)) {
    case 17: {
      const children = arr(c.components);
      if (children.length < 1) problems.push('empty container');
      if (c.accent_color !== undefined && c.accent_color !== null) {
        const color = Number(c.accent_color);
        if (!Number.isInteger(color) || color < 0 || color > 0xffffff) problems.push('accent_color');
      }
      for (const child of children) {
        if (!IN_CONTAINER.has(Number(child.type)))
          problems.push(`component type ${child.type} in a container`);
        checkV2(child, walk);
      }
      return;
    }
    case 9: {
      const texts = arr(c.components);
      if (texts.length < 1 || texts.length > 3) problems.push(`section with ${texts.length} texts (1-3)`);
      for (const t of texts) {
        if (t.type !== 10) problems.push(`component type ${t.type} in a section`);
        checkV2(t, walk);
      }
      const accessory = c.accessory as Json | undefined;
      if (!accessory || ![2, 11].includes(Number(accessory.type)))
        problems.push('a section needs a button or thumbnail accessory');
      else if (accessory.type === 2) {
        state.count += 1;
        interactiveProblems(accessory, { problems, ids: state.ids });
      } else checkV2(accessory, walk);
      return;
    }
    case 10:
      if (len(c.content) < 1 || len(c.content) > 4000) problems.push(`text display length ${len(c.content)}`);
      state.text += len(c.content);
      return;
    case 11:
      if (!mediaUrl((c.media as Json | undefined)?.url)) problems.push('thumbnail media url');
      if (len(c.description) > 1024) problems.push('thumbnail description over 1024');
      return;
    case 12: {
      const items = arr(c.items);
      if (items.length < 1 || items.length > 10) problems.push(`gallery with ${items.length} items (1-10)`);
      for (const item of items) {
        if (!mediaUrl((item.media as Json | undefined)?.url)) problems.push('gallery item media url');
        if (len(item.description) > 1024) problems.push('gallery item description over 1024');
      }
      return;
    }
    case 14:
      if (c.spacing !== undefined && ![1, 2].includes(Number(c.spacing))) problems.push('separator spacing');
      return;
    case 13:
      if (!/^attachment:\/\//.test(String((c.file as Json | undefined)?.url))) problems.push('file url');
      return;
    case 1:
      problems.push(...rowProblems(c, state.ids));
      state.count += arr(c.components).length;
      return;
    default:
      problems.push(`unknown component type ${String(c.type)}`);
  }
}

/** An action row's rules: one to five buttons, or one select alone. */
function rowProblems(row: Json, ids: Set<string>): string[] {
  const problems: string[] = [];
  const children = arr(row.components);
  if (children.some((c) => c.type === 3) && children.length > 1) problems.push('a select shares its row');
  if (children.length < 1 || children.length > 5) problems.push(`row with ${children.length} components`);
  for (const c of children) interactiveProblems(c, { problems, ids });
  return problems;
}

/** A button or select, wherever it sits; its custom id unique in the message. */
function interactiveProblems(c: Json, at: { problems: string[]; ids: Set<string> }): void {
  const { problems, ids } = at;
  if (c.type === 2) {
    if (len(c.label) > 80) problems.push(`button label ${len(c.label)}`);
    if (c.style === 5) {
      if (c.custom_id !== undefined || !/^https?:\/\//.test(String(c.url)) || len(c.url) > 512)
        problems.push('bad link button');
      return;
    }
    if (![1, 2, 3, 4].includes(Number(c.style))) problems.push(`button style ${String(c.style)}`);
  } else if (c.type === 3) {
    const options = arr(c.options);
    if (options.length < 1 || options.length > 25) problems.push(`select with ${options.length} options`);
    if (len(c.placeholder) > 150) problems.push('select placeholder');
  } else {
    problems.push(`component type ${String(c.type)} in an action row`);
    return;
  }
  const id = String(c.custom_id ?? '');
  if (len(id) < 1 || len(id) > 100) problems.push(`missing or bad custom_id (${len(id)} characters)`);
  if (ids.has(id)) problems.push(`duplicate custom_id ${id}`);
  ids.add(id);
}

/**
 * A V2 message shows a file only through a component naming it (`attachment://name`); one naming a file the
 * message does not hold shows nothing, so it is a problem (`files`: the names of the message's files).
 */
export function attachmentProblems(components: readonly Json[], files: ReadonlySet<string>): string[] {
  const walk = (c: Json): string[] => [
    ...arr(c.items).map((item) => String((item.media as Json | undefined)?.url)),
    ...[(c.media as Json | undefined)?.url, (c.file as Json | undefined)?.url]
      .filter((u) => u !== undefined)
      .map(String),
    ...arr(c.components).flatMap(walk),
    ...(c.accessory ? walk(c.accessory as Json) : []),
  ];
  return components
    .flatMap(walk)
    .flatMap((url) => (url.startsWith('attachment://') ? [url.slice('attachment://'.length)] : []))
    .filter((name) => !files.has(name))
    .map((name) => `attachment://${name} names no file of the message`);
}

/**
 * An edit of an existing message. The flag cannot be removed, so an edit of a V2 message is checked as V2
 * whatever it says; an edit that sets it on an older message must reset what V2 forbids (`content` to null,
 * `embeds` to []), or the message would keep them (Discord: resources/message#edit-message).
 */
export function editProblems(
  message: { flags: number; content: string; embeds: Json[]; components?: Json[] },
  body: Json,
): string[] {
  const v2 = (Number(body.flags ?? 0) | message.flags) & IS_COMPONENTS_V2;
  if (!v2) return messageProblems(body);
  // An edit leaving out `components` (only `attachments`, say) keeps the message's own.
  const components = body.components ?? message.components;
  const problems = componentsV2Problems({ ...body, components, flags: IS_COMPONENTS_V2 });
  if (body.content === undefined && message.content) problems.push('IS_COMPONENTS_V2 but content not reset');
  if (body.embeds === undefined && message.embeds.length > 0)
    problems.push('IS_COMPONENTS_V2 but embeds not reset');
  if (body.components === undefined && !(message.flags & IS_COMPONENTS_V2))
    problems.push('IS_COMPONENTS_V2 set without components');
  return problems;
}

// ---- modals ----------------------------------------------------------------------------------------------

export function modalProblems(data: Json): string[] {
  const problems: string[] = [];
  if (len(data.title) < 1 || len(data.title) > 45) problems.push(`title length ${len(data.title)}`);
  if (len(data.custom_id) < 1 || len(data.custom_id) > 100)
    problems.push(`custom_id length ${len(data.custom_id)}`);
  const components = arr(data.components);
  if (components.length < 1 || components.length > 5) problems.push(`${components.length} components (1-5)`);
  const ids = new Set<string>();
  for (const c of components) {
    if (c.type === 10) {
      if (len(c.content) < 1 || len(c.content) > 4000) problems.push('text display size');
      continue;
    }
    if (c.type !== 18) {
      problems.push(`top-level component type ${String(c.type)} (labels or text displays)`);
      continue;
    }
    if (len(c.label) < 1 || len(c.label) > 45) problems.push(`label length ${len(c.label)}`);
    if (len(c.description) > 100) problems.push(`label description ${len(c.description)}`);
    const inner = (c.component ?? {}) as Json;
    const id = String(inner.custom_id ?? '');
    if (len(id) < 1 || len(id) > 100 || ids.has(id)) problems.push(`input custom_id ${id}`);
    ids.add(id);
    if (inner.type === 4) {
      if (inner.label !== undefined) problems.push('a text input in a label has no label of its own');
      if (![1, 2].includes(Number(inner.style))) problems.push('text input style');
      if (len(inner.placeholder) > 100) problems.push('placeholder over 100');
      if (len(inner.value) > 4000) problems.push('value over 4000');
      if (inner.max_length !== undefined && (Number(inner.max_length) < 1 || Number(inner.max_length) > 4000))
        problems.push('max_length');
    } else if (inner.type === 3) {
      const options = arr(inner.options);
      if (options.length < 1 || options.length > 25) problems.push(`select with ${options.length} options`);
      for (const o of options) {
        if (len(o.label) < 1 || len(o.label) > 100 || len(o.value) < 1 || len(o.value) > 100)
          problems.push('select option size');
        if (len(o.description) > 100) problems.push('select option description');
      }
      const values = new Set(options.map((o) => String(o.value)));
      if (values.size !== options.length) problems.push(`select ${id}: duplicate option values`);
      const min = inner.min_values === undefined ? 1 : Number(inner.min_values);
      const max = inner.max_values === undefined ? 1 : Number(inner.max_values);
      if (min < 0 || min > 25 || max < 1 || max > 25 || min > max || max > options.length)
        problems.push(`select ${id}: min_values ${min}, max_values ${max}`);
      if (options.filter((o) => o.default === true).length > max)
        problems.push(`select ${id}: too many defaults`);
      if (len(inner.placeholder) > 150) problems.push('select placeholder');
    } else if (inner.type === 19) {
      const min = inner.min_values === undefined ? 1 : Number(inner.min_values);
      const max = inner.max_values === undefined ? 1 : Number(inner.max_values);
      if (min < 0 || max < 1 || max > 10 || min > max) problems.push(`file upload ${id}: min/max values`);
    } else problems.push(`label holds component type ${String(inner.type)}`);
  }
  return problems;
}
