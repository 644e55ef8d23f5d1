/**
 * A Discord test world: the end-to-end harness (simulator over HTTP, client, SQLite, core, poller, outbox)
 * with the REAL Discord adapter delivering through the REAL discord.js (gateway mode) or the HTTP endpoint
 * (signed with an Ed25519 key pair made here), against the local fake Discord. Helpers act like a member would:
 * run a slash command, click a button on a message, submit a modal, type into an autocompleted option.
 */
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { createDiscordAdapter, type DiscordAdapter } from '../../adapters/discord/index.js';
import { userAddress } from '../../src/core/ports/address.js';
import { WorkspaceGate } from '../../src/core/workspace/workspace-gate.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import { createLogger } from '../../src/observability/logger.js';
import { type DiscordSigner, discordSigner } from '../support/ed25519.js';
import { createHarness, DEMO_KEY, type Harness, type HarnessOptions } from '../support/harness.js';
import {
  type FakeDiscord as Fake,
  FakeDiscord,
  type FakeInteraction,
  type FakeMessage,
  snowflake,
} from './fake-discord.js';
import { controlsIn, type Readable, textOf } from './read-message.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read loosely typed Discord JSON
export type Json = Record<string, any>;

export const IDS = {
  app: '1300000000000000001',
  guild: '1300000000000000100',
  channel: '1300000000000000200',
  approvers: '1300000000000000400',
} as const;
export const TOKEN = 'MTMwMDAwMDAwMDAwMDAwMDAwMQ.fake.bot-token-for-tests';

export const MEMBERS = {
  alice: { id: '1300000000000000501', username: 'alice', globalName: 'Alice', roles: [IDS.approvers] },
  bob: { id: '1300000000000000502', username: 'bob', globalName: 'Bob', roles: [] as string[] },
  carol: { id: '1300000000000000503', username: 'carol', globalName: 'Carol', roles: [] as string[] },
} as const;
export type MemberName = keyof typeof MEMBERS;

const fixture = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Json;

export interface WorldOptions {
  mode?: 'gateway' | 'http';
  deferAfterMs?: number;
  harness?: HarnessOptions;
  /** Members linked to the demo key (default all). */
  linked?: MemberName[];
  heartbeatIntervalMs?: number;
  /** `REELBOT_WORKSPACES`: the servers (and `discord:@me`) the adapter serves; unset serves every one. */
  workspaces?: string[];
  /**
   * A harness shared with other worlds (one simulator, one store, one poller and outbox for several
   * platforms): used instead of a new one (`harness` is then ignored), and left open by `close()`.
   */
  shared?: Harness;
}

export interface World {
  h: Harness;
  fake: Fake;
  adapter: DiscordAdapter;
  http: HttpServer;
  /** `http://127.0.0.1:port/discord/interactions` in HTTP mode. */
  endpoint?: string;
  keys?: DiscordSigner;
  address(member: MemberName): string;
  conversation: string;
  /** `/reel <path> option:value…`, e.g. `slash('series show', { series: 'x' })`. */
  slash(
    path: string,
    options?: Record<string, string | number | boolean>,
    as?: MemberName,
  ): Promise<FakeInteraction>;
  autocomplete(
    path: string,
    option: string,
    value: string,
    as?: MemberName,
  ): Promise<{ name: string; value: string }[]>;
  click(
    message: FakeMessage,
    control: string | RegExp,
    as?: MemberName,
    values?: string[],
  ): Promise<FakeInteraction>;
  submit(
    modalOf: FakeInteraction,
    values: Record<string, string | string[]>,
    as?: MemberName,
  ): Promise<FakeInteraction>;
  /** Sends a raw payload the way the mode does; resolves once the first response is in. */
  send(payload: Json): Promise<FakeInteraction>;
  /** The message an interaction's first response made or changed. */
  original(record: FakeInteraction): FakeMessage;
  /** The answer as the member sees it: the original message, or the public follow-up that replaced it. */
  answer(record: FakeInteraction): FakeMessage;
  close(): Promise<void>;
}

export async function discordWorld(options: WorldOptions = {}): Promise<World> {
  const mode = options.mode ?? 'gateway';
  const h = options.shared ?? (await createHarness({ platform: 'discord', ...options.harness }));
  const fake = await new FakeDiscord({
    token: TOKEN,
    applicationId: IDS.app,
    guildId: IDS.guild,
    channelId: IDS.channel,
    roles: [{ id: IDS.approvers, name: 'Approvers' }],
    ...(options.heartbeatIntervalMs ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
  }).start();
  const quiet = createLogger({ level: 'silent', destination: new Writable({ write: (_c, _e, cb) => cb() }) });
  const http = createHttpServer({
    logger: quiet,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
  });
  const keys = mode === 'http' ? discordSigner() : undefined;
  const adapter = createDiscordAdapter({
    config: {
      token: TOKEN,
      applicationId: IDS.app,
      apiUrl: fake.apiUrl,
      guildId: IDS.guild,
      ...(keys ? { publicKey: keys.publicKeyHex } : {}),
    },
    bot: h.bot,
    http,
    store: h.store,
    logger: h.deps.logger,
    clock: h.clock,
    deferAfterMs: options.deferAfterMs ?? 5_000,
    ...(options.workspaces
      ? { gate: new WorkspaceGate({ workspaces: options.workspaces, logger: h.deps.logger }) }
      : {}),
  });
  h.senders.discord = adapter.sender;
  await adapter.start();
  const listening = mode === 'http' ? await http.listen(0, '127.0.0.1') : undefined;
  const endpoint = listening ? `${listening.url}/discord/interactions` : undefined;

  const address = (member: MemberName) => userAddress('discord', IDS.guild, MEMBERS[member].id);
  for (const member of options.linked ?? (Object.keys(MEMBERS) as MemberName[])) {
    await h.store.keys.put(address(member), {
      apiKey: DEMO_KEY,
      keyPrefix: DEMO_KEY.slice(0, 12),
      teamId: 'team',
      teamName: 'Team',
    });
  }

  const base = (kind: string, as: MemberName) => interactionPayload(kind, as);
  const optionTree = (path: string[], options: Record<string, unknown>, focused?: string) =>
    commandOptions(fake, path, options, focused);

  async function send(payload: Json): Promise<FakeInteraction> {
    let record: FakeInteraction;
    if (mode === 'gateway') record = fake.dispatchInteraction(payload);
    else {
      record = fake.register(payload);
      const body = JSON.stringify(payload);
      const timestamp = String(Math.floor(h.clock.now() / 1000));
      const signature = (keys as DiscordSigner).sign(timestamp, body);
      const res = await fetch(endpoint as string, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature-ed25519': signature,
          'x-signature-timestamp': timestamp,
        },
        body,
      });
      if (res.status !== 200) throw new Error(`endpoint answered ${res.status}: ${await res.text()}`);
      const result = fake.applyCallback(record.id, record.token, (await res.json()) as Json);
      if (result.status >= 400)
        throw new Error(`fake refused the HTTP answer: ${JSON.stringify(result.body)}`);
    }
    await fake.waitFor(() => record.callbacks.length > 0, 10_000);
    // Acknowledged first ("thinking…"): the answer is edited into the placeholder, or the placeholder goes
    // (after a public follow-up, or when there is nothing to say).
    if ((record.callbacks[0] as Json).type === 5)
      await fake.waitFor(() => record.events.some((e) => e === 'edit' || e === 'delete'), 10_000);
    // The core has answered: deliver what it queued for the channel.
    await h.flush();
    return record;
  }

  const world: World = {
    h,
    fake,
    adapter,
    http,
    ...(endpoint ? { endpoint } : {}),
    ...(keys ? { keys } : {}),
    address,
    conversation: `discord:${IDS.guild}:${IDS.channel}`,
    send,
    slash(path, options = {}, as = 'alice') {
      const payload = base('chat-input', as);
      payload.data.options = optionTree(path.split(' '), options);
      return send(payload);
    },
    async autocomplete(path, option, value, as = 'alice') {
      const payload = base('autocomplete', as);
      payload.data.options = optionTree(path.split(' '), { [option]: value }, option);
      const record = await send(payload);
      const response = record.callbacks[0] as Json;
      if (response.type !== 8) throw new Error(`autocomplete answered type ${response.type}`);
      return response.data.choices;
    },
    click(message, control, as = 'alice', values) {
      return send(clickPayload(fake, { message, control, as, ...(values ? { values } : {}) }));
    },
    submit(modalOf, values, as = 'alice') {
      return send(submitPayload(fake, { modalOf, values, as }));
    },
    original(record) {
      const id = record.original;
      const message = id ? fake.messages.get(id) : undefined;
      if (!message)
        throw new Error(`interaction ${record.id} has no original message (${record.events.join(', ')})`);
      return message;
    },
    answer(record) {
      const original = record.original ? fake.messages.get(record.original) : undefined;
      const last = record.followups.at(-1);
      const followUp = last ? fake.messages.get(last) : undefined;
      if (original?.deleted && followUp) return followUp;
      return world.original(record);
    },
    async close() {
      await adapter.stop();
      await http.close();
      await fake.close();
      if (!options.shared) await h.close();
    },
  };
  return world;
}

/** Every text of a Discord message (embeds, fields, footers; or a V2 card's text displays), for assertions. */
export const textOfMessage = (message: Readable): string => textOf(message);

/** The modal an interaction was answered with (callback type 9); throws when it was answered otherwise. */
export function modalOf(record: FakeInteraction): Json {
  const callback = record.callbacks[0] as Json;
  if (callback.type !== 9) throw new Error(`expected a modal, got callback type ${callback.type}`);
  return callback.data as Json;
}

/** Labels of a message's buttons and selects (in rows or beside a V2 card's sections). */
export function controlsOf(message: Readable): string[] {
  return controlsIn(message).map((c) => String(c.label ?? c.placeholder));
}

/** A fixture filled in as `as` sending it, with a fresh id and token. */
export function interactionPayload(kind: string, as: MemberName): Json {
  const payload = fixture(kind);
  const member = MEMBERS[as];
  payload.id = snowflake();
  payload.token = `token-${payload.id}-${Math.random().toString(36).slice(2)}`;
  payload.member.user = {
    ...payload.member.user,
    id: member.id,
    username: member.username,
    global_name: member.globalName,
  };
  payload.member.roles = [...member.roles];
  return payload;
}

/** A click on the control of `message` labelled (or custom-id'd, or placeholdered) `control`, as `as`. */
export function clickPayload(
  fake: Fake,
  click: { message: FakeMessage; control: string | RegExp; as: MemberName; values?: string[] },
): Json {
  const { message, control, as, values } = click;
  const components = controlsIn(message);
  const found = components.find((c) =>
    typeof control === 'string'
      ? c.label === control || c.custom_id === control || c.placeholder === control
      : control.test(String(c.label ?? c.placeholder ?? '')),
  );
  if (!found)
    throw new Error(
      `no control ${String(control)} on message: ${JSON.stringify(components.map((c) => c.label ?? c.placeholder))}`,
    );
  const payload = interactionPayload(found.type === 3 ? 'string-select' : 'button', as);
  payload.channel_id = message.channel_id;
  payload.channel.id = message.channel_id;
  payload.message = fake.view(message);
  payload.data = {
    component_type: found.type,
    custom_id: found.custom_id,
    id: 1,
    ...(found.type === 3 ? { values: values ?? [found.options[0].value] } : {}),
  };
  return payload;
}

/** The submission of the modal `modalOf` opened, with `values` by input id (the rest as prefilled), as `as`. */
export function submitPayload(
  fake: Fake,
  submit: { modalOf: FakeInteraction; values: Record<string, string | string[]>; as: MemberName },
): Json {
  const { modalOf, values, as } = submit;
  const modal = (modalOf.callbacks[0] as Json).data as Json;
  if ((modalOf.callbacks[0] as Json).type !== 9) throw new Error('that interaction did not open a modal');
  const payload = interactionPayload('modal-submit', as);
  payload.channel_id = modalOf.channelId;
  if (modalOf.sourceMessage)
    payload.message = fake.view(fake.messages.get(modalOf.sourceMessage) as FakeMessage);
  payload.data = {
    custom_id: modal.custom_id,
    components: (modal.components as Json[]).map((c, i) => {
      if (c.type !== 18) return { type: c.type, id: i + 1 };
      const inner = c.component as Json;
      const given = values[inner.custom_id];
      const component =
        inner.type === 3
          ? {
              type: 3,
              id: 100 + i,
              custom_id: inner.custom_id,
              values: Array.isArray(given) ? given : given !== undefined ? [given] : [],
            }
          : {
              type: 4,
              id: 100 + i,
              custom_id: inner.custom_id,
              value: String(given ?? inner.value ?? ''),
            };
      return { type: 18, id: i + 1, component };
    }),
  };
  return payload;
}

/** The option tree of `/reel <path>` as Discord sends it, typed from what the fake has registered. */
export function commandOptions(
  fake: Fake,
  path: string[],
  options: Record<string, unknown>,
  focused?: string,
): Json[] {
  const root = (fake.commands.get(`guild:${IDS.guild}`) ?? []).find((c) => c.name === 'reel');
  if (!root) throw new Error('/reel is not registered');
  let level: Json[] = root.options;
  const chain: Json[] = [];
  for (const name of path) {
    const node = level.find((o) => o.name === name);
    if (!node) throw new Error(`no /reel ${path.join(' ')}`);
    chain.push(node);
    level = node.options ?? [];
  }
  const leaves = Object.entries(options).map(([name, value]) => {
    const spec = level.find((o) => o.name === name);
    if (!spec) throw new Error(`/reel ${path.join(' ')} has no option ${name}`);
    return { name, type: spec.type, value, ...(name === focused ? { focused: true } : {}) };
  });
  let tree: Json[] = leaves;
  for (const node of chain.reverse())
    tree = [{ name: node.name, type: node.type, ...(tree.length ? { options: tree } : {}) }];
  return tree;
}
