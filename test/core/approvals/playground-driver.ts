/**
 * The scenario driver through the playground adapter: the real core, store, poller and outbox behind the
 * playground's HTTP routes on 127.0.0.1. People act with POSTs (`/playground/command|action|form`), and what
 * they see is read back from the HTML the playground serves (`/playground/messages`), so buttons are clicked
 * with the action and value the page carries. erin is in the playground group `reviewers` (`@&reviewers`).
 */
import type { PlaygroundUser } from '../../../adapters/playground/routes.js';
import { createHarness, DEMO_KEY } from '../../support/harness.js';
import { servePlayground } from '../../support/playground-server.js';
import {
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
/** `dm`: the playground has no DMs; a conversation of its own in the same workspace stands for one. */
const CHANNELS: Record<Channel, string> = { main: 'C1', other: 'C2', dm: 'D1' };

interface View {
  id: string;
  channel: string;
  threadOf?: string;
  html: string;
}

interface PostReply {
  ok: boolean;
  kind: Reply['kind'];
  messages?: View[];
  form?: { id: string; html: string };
  errors?: Record<string, string>;
  error?: string;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};
const unescapeHtml = (s: string): string => s.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);
/** Visible text of an HTML fragment: block ends and `<br>` become line breaks, tags go. */
const textOf = (html: string): string =>
  unescapeHtml(
    html
      .replace(/<br\s*\/?>/g, '\n')
      .replace(/<\/(p|div|dd|dt|h3|li|section)>/g, '\n')
      .replace(/<[^>]+>/g, ''),
  )
    .replace(/\n{2,}/g, '\n')
    .trim();

/** A card as the page shows it. */
function parseCard(view: View): ShownCard {
  const html = view.html;
  const title = textOf(/data-testid="card-title">([\s\S]*?)<\/h3>/.exec(html)?.[1] ?? '');
  const section = /<section class="card[\s\S]*<\/section>/.exec(html)?.[0] ?? '';
  const buttons: ButtonRef[] = [
    ...html.matchAll(
      /data-testid="card-button" data-action="([^"]*)" data-value="([^"]*)"[^>]*>([\s\S]*?)<\/button>/g,
    ),
  ].map((m) => ({
    action: unescapeHtml(m[1] ?? ''),
    value: unescapeHtml(m[2] ?? ''),
    label: textOf(m[3] ?? ''),
    message: view.id,
  }));
  const image = /<img class="card-image" src="([^"]*)"/.exec(html)?.[1];
  return {
    title,
    text: textOf(section),
    buttons,
    message: view.id,
    ...(image ? { image: unescapeHtml(image) } : {}),
  };
}

/** Each person's browser session cookie, from opening the page as them (`sessions.ts`). */
const sessions = new Map<string, string>();
async function sessionOf(user: string): Promise<string> {
  const known = sessions.get(`${baseUrl} ${user}`);
  if (known) return known;
  const page = await fetch(`${baseUrl}/?user=${encodeURIComponent(user)}`);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
  sessions.set(`${baseUrl} ${user}`, cookie);
  return cookie;
}

/** The file a card carries, fetched through its download link as `user`'s page would. */
async function withFile(card: ShownCard, view: View, user: string): Promise<ShownCard> {
  const href = /<a href="([^"]*)"[^>]*data-testid="card-file"/.exec(view.html)?.[1];
  if (!href || !baseUrl) return card;
  const res = await fetch(`${baseUrl}${unescapeHtml(href)}`, { headers: { cookie: await sessionOf(user) } });
  if (res.status !== 200) throw new Error(`the card's file answered ${res.status}`);
  return { ...card, file: await res.text() };
}
let baseUrl = '';

const isBotCard = (v: View): boolean =>
  /data-author="reelbot"/.test(v.html) && /data-testid="card"/.test(v.html);
const isEphemeral = (v: View): boolean => /data-ephemeral="true"/.test(v.html);

export async function createPlaygroundDriver(options: DriverOptions = {}): Promise<ScenarioDriver> {
  const h = await createHarness({
    platform: 'playground',
    teams: [otherTeam()],
    simulator: { profile: options.profile ?? 'spec' },
  });
  for (const person of PEOPLE) await h.user(person, { key: person === 'mallory' ? OTHER_KEY : DEMO_KEY });
  // The demo's first member (alice) is its workspace admin; the adapter reads groups from this list.
  const users: PlaygroundUser[] = PEOPLE.map((id) => ({
    id,
    name: id[0]?.toUpperCase() + id.slice(1),
    groups: id === 'erin' ? ['reviewers'] : [],
  }));
  // The outbox delivers through the playground's own sender, into the history the page serves.
  const { http, adapter, url } = await servePlayground(h, { channels: Object.values(CHANNELS), users });
  baseUrl = url;
  /** Messages that answered a POST: not notices. */
  const answers = new Set<string>();

  async function post(path: string, body: Record<string, unknown>): Promise<Reply> {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as PostReply;
    if (!json.ok) throw new Error(`${path} answered ${res.status}: ${json.error}`);
    await h.flush();
    for (const m of json.messages ?? []) answers.add(m.id);
    const last = json.messages?.[json.messages.length - 1];
    switch (json.kind) {
      case 'message':
      case 'update':
        if (!last) throw new Error(`${path}: ${json.kind} without a message`);
        return {
          kind: json.kind,
          ...(json.kind === 'message' ? { visibility: isEphemeral(last) ? 'ephemeral' : 'channel' } : {}),
          card: await withFile(parseCard(last), last, String(body.user)),
        };
      case 'form': {
        const html = json.form?.html ?? '';
        return {
          kind: 'form',
          form: {
            id: unescapeHtml(/data-form-id="([^"]*)"/.exec(html)?.[1] ?? ''),
            state: unescapeHtml(/data-state="([^"]*)"/.exec(html)?.[1] ?? ''),
            inputs: [...html.matchAll(/data-testid="form-input" data-input-id="([^"]*)"/g)].map((m) =>
              unescapeHtml(m[1] ?? ''),
            ),
            ...(typeof body.messageId === 'string' ? { message: body.messageId } : {}),
          },
        };
      }
      case 'form-errors':
        return { kind: 'form-errors', errors: json.errors ?? {} };
      default:
        return { kind: 'none' };
    }
  }

  async function history(user: Person, channel: Channel): Promise<View[]> {
    const res = await fetch(`${url}/playground/messages?user=${user}&channel=${CHANNELS[channel]}`);
    return ((await res.json()) as { messages: View[] }).messages;
  }

  return {
    name: 'the playground over HTTP',
    mention: (p) => `@${p}`,
    groups: {
      mention: () => '@&reviewers',
      breakLookup() {
        // The playground's membership source is its member list: marked unknown, as a failed lookup.
        for (const u of users) u.groupsUnknown = true;
        return Promise.resolve();
      },
    },
    run(as, text) {
      const { user, channel } = actorOf(as);
      return post('/playground/command', { user, channel: CHANNELS[channel], text: `/reel ${text}` });
    },
    click(as, b) {
      const { user, channel } = actorOf(as);
      // A forged click names no real message: any well-formed id will do.
      return post('/playground/action', {
        user,
        channel: CHANNELS[channel],
        messageId: b.message ?? 'forged-1',
        action: b.action,
        value: b.value,
      });
    },
    submit(as, form, values) {
      const { user, channel } = actorOf(as);
      return post('/playground/form', {
        user,
        channel: CHANNELS[channel],
        formId: form.id,
        state: form.state,
        values,
        ...(form.message ? { messageId: form.message } : {}),
      });
    },
    async cards(channel = 'main') {
      return (await history('alice', channel))
        .filter((v) => isBotCard(v) && !isEphemeral(v) && !v.threadOf)
        .map(parseCard);
    },
    async replies(card) {
      const all = [...(await history('alice', 'main')), ...(await history('alice', 'other'))];
      return all.filter((v) => isBotCard(v) && v.threadOf === card.message).map(parseCard);
    },
    async reload(as, message) {
      const { user, channel } = actorOf(as);
      const view = (await history(user, channel)).find((v) => v.id === message);
      return view ? parseCard(view) : undefined;
    },
    async notices(user) {
      const all = [...(await history(user, 'main')), ...(await history(user, 'other'))];
      return all.filter((v) => isBotCard(v) && isEphemeral(v) && !answers.has(v.id)).map(parseCard);
    },
    advance: (ms) => h.advance(ms),
    now: () => h.clock.now(),
    fixtures: harnessFixtures(h),
    async close() {
      await adapter.stop();
      await http.close();
      await h.close();
    },
  };
}
