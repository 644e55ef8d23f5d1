/**
 * Shows the core's `Response` where a Slack interaction came from:
 * - ephemeral messages through the interaction's `response_url` (works in channels the bot is not in),
 *   else `chat.postEphemeral`, else (App Home) the app's DM;
 * - channel messages through `response_url` with `response_type: in_channel`, else `chat.postMessage`;
 * - `update` replaces the clicked message (`replace_original`);
 * - forms open as modals straight from the interaction's trigger id while it is fresh (Slack: 3 s). When the
 *   core took longer, the caller gets an ephemeral "Open form" button whose click brings a fresh trigger.
 */
import type { webApi } from '@slack/bolt';
import type { Card, Clock, Form, Logger, Response, Store } from '../../src/core/index.js';
import { errorCard, literal, say, withoutAttachment } from '../../src/core/index.js';
import {
  type BlockSupport,
  CLASSIC,
  type NativeBlock,
  nativeTypesIn,
  refusedNativeTypes,
} from './block-support.js';
import { nativeFor, sendDegrading } from './degrading.js';
import { describeSlackError, refusedViewBlocks } from './errors.js';
import { answerWithFile } from './files-out.js';
import { formToView, type ModalOrigin } from './modal.js';
import { PendingForms } from './pending-forms.js';
import {
  cardToBlocks,
  cardToMessage,
  fallbackText,
  LIMITS,
  OPEN_FORM_ACTION,
  type SlackMessage,
} from './render.js';
import { replaceMessage, replyEphemeral, replyInChannel } from './replies.js';
import { toPlain } from './text.js';

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
  /** The workspace (team id): which of Slack's newest blocks it takes is remembered per workspace. */
  team?: string;
}

export interface Presenter {
  present(response: Response, surface: Surface): Promise<void>;
  /** Opens a modal now; false when the trigger is stale or Slack refused it. */
  openModal(form: Form, surface: Surface): Promise<boolean>;
  /** The form an "Open form" button stands for, by its value. */
  pendingForm(value: string): Promise<{ form?: Form; replay?: Replay }>;
  ephemeral(surface: Surface, message: SlackMessage): Promise<void>;
}

/** What presenting shares: the clock (trigger ages, response_url timeouts), the log, the forms offered. */
interface PresenterContext {
  blockSupport?: BlockSupport;
  clock: Clock;
  log: Logger;
  pending: PendingForms;
}

export function createPresenter(options: {
  logger: Logger;
  clock: Clock;
  /** Where forms behind an "Open form" button wait, so any replica opens them. */
  store: Store['interactions'];
  /** Which newest blocks each workspace takes (block-support.ts). */
  blockSupport?: BlockSupport;
}): Presenter {
  const ctx: PresenterContext = {
    ...(options.blockSupport ? { blockSupport: options.blockSupport } : {}),
    clock: options.clock,
    log: options.logger.child({ component: 'slack' }),
    pending: new PendingForms(options.store),
  };
  return {
    present: (response, surface) => present(ctx, response, surface),
    openModal: (form, surface) => openModal(ctx, form, surface),
    ephemeral: (surface, message) => replyEphemeral(ctx.clock, surface, message),
    pendingForm: (value) => ctx.pending.fromButton(value),
  };
}

async function present(ctx: PresenterContext, response: Response, surface: Surface): Promise<void> {
  switch (response.kind) {
    case 'message': {
      if (response.card.attachment) return answerWithFile({ ...ctx, ...response, surface });
      const reply = response.visibility === 'channel' ? replyInChannel : replyEphemeral;
      if (response.more) return reply(ctx.clock, surface, stacked([response.card, ...response.more]));
      return degrading(ctx, { card: response.card, surface, what: 'reply' }, (message) =>
        reply(ctx.clock, surface, message),
      );
    }
    case 'update':
      return degrading(ctx, { card: withoutAttachment(response.card), surface, what: 'replace' }, (message) =>
        replaceMessage(ctx.clock, surface, message),
      );
    case 'form':
      if (await openModal(ctx, response.form, surface)) return;
      return offerForm(ctx, response.form, surface);
    case 'form-errors': {
      const errors = Object.values(response.errors)
        .map((e) => `• ${e}`)
        .join('\n');
      const card = errorCard(say('form-not-saved', { errors }));
      return present(ctx, card, surface);
    }
    case 'none':
      return;
  }
}

/** Sends `card` in the newest blocks the surface's workspace takes, simpler on refusal (degrading.ts). */
function degrading(
  ctx: PresenterContext,
  o: { card: Card; surface: Surface; what: string },
  send: (message: SlackMessage) => Promise<void>,
): Promise<void> {
  const { surface } = o;
  const blocks =
    ctx.blockSupport && surface.team ? { support: ctx.blockSupport, workspace: surface.team } : undefined;
  const where = {
    log: ctx.log,
    what: o.what,
    channel: surface.channel ?? surface.user,
    ...(blocks ? { blocks } : {}),
  };
  return sendDegrading(o.card, where, (message) =>
    send({ text: message.text, blocks: message.blocks ?? [] }),
  );
}

/**
 * Several cards answered together (`home`, the dashboard): one message, a divider between cards, each its
 * share of the 50 blocks, and a pointer to the same dashboard on the app's Home tab.
 */
function stacked(cards: readonly [Card, ...Card[]]): SlackMessage {
  const blocks: SlackMessage['blocks'] = [];
  const budget = LIMITS.messageBlocks - 1;
  cards.forEach((card, i) => {
    const room = budget - blocks.length - (i > 0 ? 1 : 0);
    if (room < 2) return;
    if (i > 0) blocks.push({ type: 'divider' });
    const share = Math.max(2, Math.floor(room / (cards.length - i)));
    blocks.push(...cardToBlocks(card, { maxBlocks: Math.min(room, share) }));
  });
  blocks.push({
    type: 'context',
    elements: [
      { type: 'mrkdwn', text: 'The same dashboard stays up to date on my *Home* tab (open my profile).' },
    ],
  });
  return { text: fallbackText(cards[0]), blocks };
}

const origin = (surface: Surface): ModalOrigin => ({
  channel: surface.channel ?? surface.user,
  ...(surface.responseUrl ? { responseUrl: surface.responseUrl } : {}),
  ...(surface.message && !surface.message.ephemeral ? { messageTs: surface.message.ts } : {}),
  ...(surface.message?.ephemeral ? { ephemeralTs: surface.message.ts } : {}),
});

/**
 * Opens the form's modal in the newest blocks the workspace takes (an alert block); when Slack refuses them
 * (`invalid_arguments` for a view, a json-pointer naming the block), once more in the classic blocks, the
 * refusal remembered for the workspace like a card's (block-support.ts), so its next modal goes classic at once.
 */
async function openModal(ctx: PresenterContext, form: Form, surface: Surface): Promise<boolean> {
  const trigger = surface.trigger;
  if (!trigger || ctx.clock.now() - trigger.receivedAt > TRIGGER_BUDGET_MS) return false;
  const blocks =
    ctx.blockSupport && surface.team ? { support: ctx.blockSupport, workspace: surface.team } : undefined;
  const viewOf = (native: ReadonlySet<NativeBlock>) =>
    formToView(form, origin(surface), { cancel: say('form-cancel'), native });
  let view = viewOf(nativeFor(blocks ? { blocks } : {}));
  for (;;) {
    try {
      await surface.client.views.open({ trigger_id: trigger.id, view });
      return true;
    } catch (error) {
      const tried = nativeTypesIn(view.blocks);
      ctx.log.warn({ slackError: describeSlackError(error).code, formId: form.id }, 'views.open failed');
      if (tried.size === 0 || !refusedViewBlocks(error)) return false;
      blocks?.support.refuse(blocks.workspace, refusedNativeTypes(error, view.blocks));
      view = viewOf(CLASSIC);
    }
  }
}

/** The late path: an ephemeral card with an "Open form" button (its click has a fresh trigger id). */
async function offerForm(ctx: PresenterContext, form: Form, surface: Surface): Promise<void> {
  const id = await ctx.pending.add(form);
  const replay = surface.replay ? JSON.stringify(surface.replay) : undefined;
  // The replay lets the button work after a restart too, when it fits in a button value.
  const value = JSON.stringify({
    f: id,
    ...(replay && replay.length < 1_800 ? { r: surface.replay } : {}),
  });
  const card: Card = {
    title: literal(toPlain(form.title)),
    tone: 'info',
    text: say('form-open-later', { title: toPlain(form.title) }),
    controls: [
      { kind: 'button', action: OPEN_FORM_ACTION, value, label: say('form-open-button'), style: 'primary' },
    ],
  };
  await replyEphemeral(ctx.clock, surface, cardToMessage(card));
}
