/**
 * One chat message as an `<article>`: avatar, author, time, the card (or a user's command echo) and a
 * thread area for replies. The page script replaces only `.msg-body` when a card is edited, so an open
 * thread and its replies stay in place.
 */
import escapeHtml from 'escape-html';
import type { Card } from '../../../src/core/index.js';
import type { PlaygroundMessage } from '../message-log.js';
import { renderCard } from '../render.js';
import { downloadLink } from '../routes/downloads.js';

export const BOT_NAME = 'reelbot';

export interface MessageView {
  id: string;
  channel: string;
  threadOf?: string;
  html: string;
}

export function renderMessage(
  message: PlaygroundMessage,
  options: { userName: (id: string) => string; replies?: readonly string[] },
): string {
  const isBot = message.kind === 'card';
  const author = isBot ? BOT_NAME : options.userName(message.userId);
  const when = new Date(message.at);
  const time = `${String(when.getUTCHours()).padStart(2, '0')}:${String(when.getUTCMinutes()).padStart(2, '0')}`;
  const replies = options.replies ?? [];
  const id = escapeHtml(message.id);
  return [
    `<article class="msg ${isBot ? 'msg-bot' : 'msg-user'}${message.visibleTo ? ' msg-private' : ''}" id="m-${id}" `,
    `data-testid="message" data-message-id="${id}" data-author="${escapeHtml(author)}"`,
    `${message.threadOf ? ` data-thread-of="${escapeHtml(message.threadOf)}"` : ''}`,
    `${message.visibleTo ? ' data-ephemeral="true"' : ''}>`,
    `<div class="avatar avatar-${isBot ? 'bot' : escapeHtml(avatarHue(author))}" aria-hidden="true">${escapeHtml(author.slice(0, 1).toUpperCase())}</div>`,
    '<div class="msg-main">',
    '<header class="msg-meta">',
    `<span class="msg-author">${escapeHtml(author)}</span>`,
    isBot ? '<span class="badge">APP</span>' : '',
    `<time datetime="${when.toISOString()}">${time}</time>`,
    message.visibleTo
      ? '<span class="private-note" data-testid="private-note">Only visible to you</span>'
      : '',
    '</header>',
    `<div class="msg-body" data-testid="message-body">${renderBody(message)}</div>`,
    // Replies nest one level only (as on Slack): a reply never carries its own thread.
    message.threadOf ? '' : renderThread(replies),
    '</div>',
    '</article>',
  ].join('');
}

function renderBody(message: PlaygroundMessage): string {
  if (message.kind === 'card')
    return (
      (message.more?.length ? renderPanel([message.card, ...message.more]) : renderCard(message.card)) +
      downloadLink(message)
    );
  return `<p class="command-echo"><code>/reel ${escapeHtml(message.text)}</code></p>`;
}

/**
 * Several cards answered together (the `home` dashboard) as one panel: a grid of cards, each marked with its
 * place so a click's `update` replaces that card only.
 */
function renderPanel(cards: readonly Card[]): string {
  const items = cards.map(
    (card, i) => `<div class="panel-item" data-card-index="${i}">${renderCard(card)}</div>`,
  );
  return `<div class="card-panel" data-testid="card-panel">${items.join('')}</div>`;
}

function renderThread(replies: readonly string[]): string {
  const count = replies.length;
  return (
    `<div class="thread" data-testid="thread"${count === 0 ? ' hidden' : ''}>` +
    `<button type="button" class="thread-toggle" aria-expanded="true" data-testid="thread-toggle">${threadLabel(count)}</button>` +
    `<div class="thread-replies" data-testid="thread-replies">${replies.join('')}</div>` +
    '</div>'
  );
}

/** Also computed by the page script when replies arrive live; keep the two in step. */
export const threadLabel = (count: number): string => `${count} ${count === 1 ? 'reply' : 'replies'}`;

/** A stable colour per person, so alice, bob and carol are told apart at a glance. */
function avatarHue(name: string): string {
  let sum = 0;
  for (const ch of name) sum = (sum * 31 + (ch.codePointAt(0) ?? 0)) % 6;
  return String(sum);
}

/** The messages a user sees, threads nested under their parents (for the first page render). */
export function renderHistory(
  messages: readonly PlaygroundMessage[],
  userName: (id: string) => string,
): string {
  const ids = new Set(messages.map((m) => m.id));
  const replies = new Map<string, string[]>();
  for (const m of messages) {
    if (m.threadOf && ids.has(m.threadOf)) {
      const list = replies.get(m.threadOf) ?? [];
      list.push(renderMessage(m, { userName }));
      replies.set(m.threadOf, list);
    }
  }
  return messages
    .filter((m) => !(m.threadOf && ids.has(m.threadOf)))
    .map((m) => renderMessage(m, { userName, replies: replies.get(m.id) ?? [] }))
    .join('');
}
