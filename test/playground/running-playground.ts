/** A fresh playground server per test, and the requests a page makes to it: commands, posts, history, events. */
import { afterEach, beforeEach, expect } from 'vitest';
import { startPlayground } from './fake-bot.js';

type Playground = Awaited<ReturnType<typeof startPlayground>>;
/** The playground of the running test (a live binding: each test reads the one its beforeEach started). */
export let pg: Playground;

/** Starts a fresh playground (the fake bot behind it) before each test of the calling file, closed after. */
export function eachOnAFreshPlayground(): void {
  beforeEach(async () => {
    pg = await startPlayground();
  });
  afterEach(async () => {
    await pg.close();
  });
}

/** A message as the page lists it. */
export interface View {
  id: string;
  channel: string;
  threadOf?: string;
  html: string;
}

export async function postJson(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${pg.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test helper reads loosely typed JSON
  return { status: res.status, body: (await res.json()) as any };
}

export const command = (text: string, user = 'alice', channel = 'general') =>
  postJson('/playground/command', { user, channel, text });

export async function history(user: string, channel = 'general'): Promise<View[]> {
  const res = await fetch(`${pg.url}/playground/messages?user=${user}&channel=${channel}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { messages: View[] }).messages;
}

/** Reads an SSE stream until `count` `message` events arrived (or the stream ends). */
export async function sse(user: string) {
  const controller = new AbortController();
  const res = await fetch(`${pg.url}/playground/events?user=${user}`, { signal: controller.signal });
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const events: { event: string; data: unknown }[] = [];
  async function next(predicate: (e: { event: string; data: unknown }) => boolean) {
    for (;;) {
      const found = events.find(predicate);
      if (found) return found;
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (event && data) events.push({ event, data: JSON.parse(data) });
        end = buffer.indexOf('\n\n');
      }
    }
  }
  await next((e) => e.event === 'ready');
  return { events, next, close: () => controller.abort() };
}
