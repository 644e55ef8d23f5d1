/**
 * The shared end-to-end harness (`test/support/harness.ts`) plus what the account tests assert on: every
 * API call the core made (to prove bad input sends nothing), a client wrapper (to make the API say what the
 * simulator never does, e.g. analytics `ready: false`), and a member's platform time zone.
 * Commands go through a bot built on the harness's own dependencies, so everything else is the real thing.
 */

import { MODULES } from '../../../src/core/commands/index.js';
import { createBot } from '../../../src/core/dispatch/bot.js';
import type { RequestInfo } from '../../../src/core/dispatch/context.js';
import type { Card, Response } from '../../../src/core/text/cards.js';
import type { VideoApi } from '../../../src/core/video-api/video-api.js';
import { spyOnApi } from '../../support/api-spy.js';
import { asTyped } from '../../support/commands-as-typed.js';
import { createHarness, DEMO_KEY, type Harness, type HarnessOptions } from '../../support/harness.js';
import { typedBy } from '../../support/mentions-as-typed.js';

export { DEMO_KEY };

export interface WorldOptions extends HarnessOptions {
  /** Wraps every client the core gets. */
  wrapApi?: (api: VideoApi) => VideoApi;
}

export interface World extends Harness {
  /** `resource.method` of every API call commands, clicks and forms made, in order (not the poller's). */
  calls: string[];
  user(
    name: string,
    options?: { key?: string | null; timeZone?: string; memberOf?: string[]; platformTimeZone?: string },
  ): Promise<RequestInfo>;
  /** A client for setting the scene through the API (demo team by default); not recorded in `calls`. */
  api(key?: string): VideoApi;
}

/** Records `resource.method` of every call made through the client. */
export const recordCalls = (api: VideoApi, calls: string[]): VideoApi =>
  spyOnApi(api, { before: (call) => calls.push(call.name) });

export async function createWorld(options: WorldOptions = {}): Promise<World> {
  const { wrapApi, ...harnessOptions } = options;
  const h = await createHarness(harnessOptions);
  const calls: string[] = [];
  const wrap = wrapApi ?? ((api: VideoApi) => api);
  const bot = createBot(
    { ...h.deps, apiFor: (key, o) => recordCalls(wrap(h.deps.apiFor(key, o)), calls) },
    MODULES,
  );
  let alice: RequestInfo | undefined;
  const as = async (who: RequestInfo | undefined): Promise<RequestInfo> => {
    if (who) return who;
    alice ??= await h.user('alice');
    return alice;
  };
  const world: World = {
    ...h,
    bot,
    calls,
    async user(name, o = {}) {
      const { platformTimeZone, ...rest } = o;
      const req = await h.user(name, rest);
      const withZone = platformTimeZone ? { ...req, platformTimeZone } : req;
      if (name === 'alice') alice = withZone;
      return withZone;
    },
    api: (key = DEMO_KEY) => h.deps.apiFor(key),
    async run(text, who) {
      const response = asTyped(await bot.handleText(typedBy(await as(who), text), text));
      await h.sender.drain();
      return response;
    },
    async click(action, value, who, choice) {
      const response = asTyped(
        await bot.handleAction(await as(who), {
          action,
          value,
          ...(choice !== undefined ? { choice } : {}),
        }),
      );
      await h.sender.drain();
      return response;
    },
    async submit(formId, state, values, who) {
      const response = asTyped(await bot.handleForm(await as(who), { formId, state, values }));
      await h.sender.drain();
      return response;
    },
  };
  return world;
}

/** Everything a response shows, as one string. */
export function textOf(response: Response): string {
  if (response.kind === 'message' || response.kind === 'update') return cardText(response.card);
  if (response.kind === 'form') {
    const f = response.form;
    return [
      f.title,
      f.alert?.text,
      f.intro,
      ...f.inputs.map((i) => `${i.label} ${i.hint ?? ''} ${i.kind === 'text' ? (i.placeholder ?? '') : ''}`),
    ].join('\n');
  }
  if (response.kind === 'form-errors') return Object.values(response.errors).join('\n');
  return '';
}

export function cardText(card: Card): string {
  return [
    card.title,
    card.text,
    ...(card.fields ?? []).map((f) => `${f.label}: ${f.value}`),
    ...(card.sections ?? []).flatMap((s) => [
      s.title,
      s.text,
      ...(s.fields ?? []).map((f) => `${f.label}: ${f.value}`),
    ]),
    card.progress?.label,
    card.context,
    ...(card.controls ?? []).map((c) => (c.kind === 'select' ? c.placeholder : c.label)),
  ]
    .filter(Boolean)
    .join('\n');
}

/** A message's card, failing the test readably when it is not one. */
export function cardOf(response: Response): Card {
  if (response.kind !== 'message' && response.kind !== 'update') {
    throw new Error(`expected a card, got ${response.kind}: ${JSON.stringify(response)}`);
  }
  return response.card;
}
