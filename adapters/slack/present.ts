/**
 * Shows the core's `Response` where a Slack interaction came from:
 * - ephemeral messages through the interaction's `response_url` (works in channels the bot is not in),
 *   else `chat.postEphemeral`, else (App Home) the app's DM;
 * - channel messages through `response_url` with `response_type: in_channel`, else `chat.postMessage`;
 * - `update` replaces the clicked message (`replace_original`);
 * - forms open as modals straight from the interaction's trigger id while it is fresh (Slack: 3 s). When the
 *   core took longer, the caller gets an ephemeral "Open form" button whose click brings a fresh trigger.
 */
import { randomUUID } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import { errorCard } from '../../src/core/bot.js';
import type { Card, Form, Response } from '../../src/core/cards.js';
import { abortAfter } from '../../src/core/deadline.js';
import { say } from '../../src/core/messages.js';
import type { Clock, Logger } from '../../src/core/ports.js';
import { cardToMessage, OPEN_FORM_ACTION, type SlackMessage } from './blocks.js';
import { describeSlackError } from './errors.js';
import { formToView, type ModalOrigin } from './modal.js';
import { toPlain } from './mrkdwn.js';

/** How long after receipt a trigger id is still worth trying (Slack allows 3 s; network takes its share). */
export const TRIGGER_BUDGET_MS = 2_500;

/** How to produce a form again after its trigger expired: re-run the command text or the click. */
export type Replay = { t: string } | { a: string; v: string; c?: string };

/** Where an interaction came from, and the means to answer it. */
export interface Surface {
  client: webApi.WebClient;
  user: string;
  /** Missing for App Home interactions. */
  channel?: string;
  responseUrl?: string;
  trigger?: { id: string; receivedAt: number };
  /** The message carrying the clicked control. */
  message?: { ts: string; ephemeral: boolean };
  replay?: Replay;
}

export interface Presenter {
  present(response: Response, surface: Surface): Promise<void>;
  /** Opens a modal now; false when the trigger is stale or Slack refused it. */
  openModal(form: Form, surface: Surface): Promise<boolean>;
  /** The form an "Open form" button stands for, by its value. */
  pendingForm(value: string): { form?: Form; replay?: Replay };
  ephemeral(surface: Surface, message: SlackMessage): Promise<void>;
}

/** Forms waiting behind an "Open form" button: as long as a response_url lives. */
const PENDING_TTL_MS = 30 * 60_000;
const PENDING_MAX = 1_000;

/** A response_url that does not answer in time is given up (the caller logs it). */
const RESPONSE_URL_TIMEOUT_MS = 10_000;

export function createPresenter(options: { logger: Logger; clock: Clock }): Presenter {
  const log = options.logger.child({ component: 'slack' });
  const now = () => options.clock.now();
  const pending = new Map<string, { form: Form; until: number }>();

  async function respond(url: string, body: Record<string, unknown>): Promise<void> {
    const timeout = abortAfter(options.clock, RESPONSE_URL_TIMEOUT_MS);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(body),
        signal: timeout.signal,
      });
      if (!res.ok) throw new Error(`response_url answered ${res.status}`);
      await res.body?.cancel();
    } finally {
      timeout.clear();
    }
  }

  async function ephemeral(surface: Surface, message: SlackMessage): Promise<void> {
    if (surface.responseUrl) {
      await respond(surface.responseUrl, { response_type: 'ephemeral', replace_original: false, ...message });
    } else if (surface.channel) {
      await surface.client.chat.postEphemeral({ channel: surface.channel, user: surface.user, ...message });
    } else {
      await surface.client.chat.postMessage({ channel: surface.user, ...message });
    }
  }

  async function inChannel(surface: Surface, message: SlackMessage): Promise<void> {
    if (surface.responseUrl) {
      await respond(surface.responseUrl, {
        response_type: 'in_channel',
        replace_original: false,
        ...message,
      });
    } else {
      await surface.client.chat.postMessage({ channel: surface.channel ?? surface.user, ...message });
    }
  }

  async function update(surface: Surface, card: Card): Promise<void> {
    const message = cardToMessage(card);
    if (surface.message && surface.responseUrl) {
      await respond(surface.responseUrl, { replace_original: true, ...message });
    } else if (surface.message && !surface.message.ephemeral && surface.channel) {
      await surface.client.chat.update({ channel: surface.channel, ts: surface.message.ts, ...message });
    } else {
      await ephemeral(surface, message);
    }
  }

  const origin = (surface: Surface): ModalOrigin => ({
    channel: surface.channel ?? surface.user,
    ...(surface.responseUrl ? { responseUrl: surface.responseUrl } : {}),
    ...(surface.message && !surface.message.ephemeral ? { messageTs: surface.message.ts } : {}),
  });

  async function openModal(form: Form, surface: Surface): Promise<boolean> {
    const trigger = surface.trigger;
    if (!trigger || now() - trigger.receivedAt > TRIGGER_BUDGET_MS) return false;
    try {
      await surface.client.views.open({
        trigger_id: trigger.id,
        view: formToView(form, origin(surface), say('form-cancel')),
      });
      return true;
    } catch (error) {
      log.warn({ slackError: describeSlackError(error).code, formId: form.id }, 'views.open failed');
      return false;
    }
  }

  /** The late path: an ephemeral card with an "Open form" button (its click has a fresh trigger id). */
  async function offerForm(form: Form, surface: Surface): Promise<void> {
    const id = randomUUID();
    pending.set(id, { form, until: now() + PENDING_TTL_MS });
    for (const [key, entry] of pending) {
      if (pending.size <= PENDING_MAX && entry.until > now()) break;
      pending.delete(key);
    }
    const replay = surface.replay ? JSON.stringify(surface.replay) : undefined;
    // The replay lets the button work after a restart too, when it fits in a button value.
    const value = JSON.stringify({
      f: id,
      ...(replay && replay.length < 1_800 ? { r: surface.replay } : {}),
    });
    const card: Card = {
      title: toPlain(form.title),
      tone: 'info',
      text: say('form-open-later', { title: toPlain(form.title) }),
      controls: [
        { kind: 'button', action: OPEN_FORM_ACTION, value, label: say('form-open-button'), style: 'primary' },
      ],
    };
    await ephemeral(surface, cardToMessage(card));
  }

  async function present(response: Response, surface: Surface): Promise<void> {
    switch (response.kind) {
      case 'message': {
        const message = cardToMessage(response.card);
        if (response.visibility === 'channel') return inChannel(surface, message);
        return ephemeral(surface, message);
      }
      case 'update':
        return update(surface, response.card);
      case 'form':
        if (await openModal(response.form, surface)) return;
        return offerForm(response.form, surface);
      case 'form-errors': {
        const errors = Object.values(response.errors)
          .map((e) => `• ${e}`)
          .join('\n');
        const card = errorCard(say('form-not-saved', { errors }));
        return present(card, surface);
      }
      case 'none':
        return;
    }
  }

  return {
    present,
    openModal,
    ephemeral,
    pendingForm(value) {
      try {
        const parsed = JSON.parse(value) as { f?: string; r?: Replay };
        const entry = parsed.f ? pending.get(parsed.f) : undefined;
        return {
          ...(entry && entry.until > now() ? { form: entry.form } : {}),
          ...(parsed.r ? { replay: parsed.r } : {}),
        };
      } catch {
        return {};
      }
    },
  };
}
