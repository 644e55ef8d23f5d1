// @ts-check
/*
 * The message list: a view from the server put in place (a new message, an edited card, a thread reply),
 * following the end of the list while the member is there, and the channel's history read again.
 */
import { input, messages, showError, state } from './page.js';

/** @typedef {import('./page.js').MessageView} MessageView */

/** @param {string} html */
function fromHtml(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  return /** @type {HTMLElement} */ (template.content.firstElementChild);
}

const nearBottom = () => messages.scrollHeight - messages.scrollTop - messages.clientHeight < 120;
export const scrollToBottom = () => {
  messages.scrollTop = messages.scrollHeight;
};

/**
 * Whether the list follows what grows at its end (a new message, a card edited taller, a picture loaded):
 * yes while the member is at the bottom, no once they scroll up to read, yes again when they come back.
 */
let following = true;
messages.addEventListener(
  'scroll',
  () => {
    following = nearBottom();
  },
  { passive: true },
);
const follow = () => {
  if (following) scrollToBottom();
};
// Pictures and the video's poster load after their card is shown, and make it taller (load does not bubble).
messages.addEventListener('load', follow, true);
messages.addEventListener('loadedmetadata', follow, true);

/** @param {number} count */
const threadLabel = (count) => `${count} ${count === 1 ? 'reply' : 'replies'}`;

/** @param {ParentNode} root */
export function localizeTimes(root) {
  for (const time of root.querySelectorAll('time[datetime]')) {
    const date = new Date(time.getAttribute('datetime') ?? '');
    if (Number.isNaN(date.getTime())) continue;
    time.textContent = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    time.setAttribute('title', date.toLocaleString());
  }
}

/** @param {Element} thread */
export function refreshThread(thread) {
  const replies = thread.querySelector('.thread-replies');
  const toggle = thread.querySelector('.thread-toggle');
  if (!replies || !toggle) return;
  const count = replies.children.length;
  /** @type {HTMLElement} */ (thread).hidden = count === 0;
  toggle.textContent = threadLabel(count);
  const article = thread.closest('[data-message-id]');
  const collapsed = article ? state.collapsed.has(article.getAttribute('data-message-id') ?? '') : false;
  toggle.setAttribute('aria-expanded', String(!collapsed));
  /** @type {HTMLElement} */ (replies).hidden = collapsed;
}

/**
 * Puts a message view in place: a new message is appended (to its thread, if it has one); an edited
 * one keeps its position and thread, only its body is swapped. A view of another channel (a new message
 * there, or an edit of a card it shows, such as a video's card live in several channels) marks that
 * channel unread: opening it re-reads its history, which holds the card's current state.
 * @param {MessageView} view
 */
export function upsert(view) {
  if (view.channel !== state.channel) return markUnread(view.channel);
  if (state.pending) {
    state.pending.push(view);
    // A channel switch is loading: the list still holds the previous channel, which this view is not for.
    if (state.shown !== state.channel) return;
  }
  const element = fromHtml(view.html);
  localizeTimes(element);
  const existing = document.getElementById(element.id);
  if (existing) return replaceBody(existing, element);
  const parent = view.threadOf ? document.getElementById(`m-${view.threadOf}`) : null;
  const thread = parent?.querySelector(':scope > .msg-main > .thread');
  if (thread) {
    thread.querySelector('.thread-replies')?.append(element);
    refreshThread(thread);
  } else {
    messages.append(element);
  }
  follow();
}

/**
 * @param {HTMLElement} existing
 * @param {HTMLElement} fresh
 */
function replaceBody(existing, fresh) {
  const oldBody = existing.querySelector(':scope > .msg-main > .msg-body');
  const newBody = fresh.querySelector(':scope > .msg-main > .msg-body');
  // The same view often arrives twice (the POST's answer and the event stream): only a real edit flashes.
  if (!oldBody || !newBody || oldBody.innerHTML === newBody.innerHTML) return;
  // Keep keyboard users where they were: refocus the same control if the edited card still has it.
  const focused = document.activeElement;
  const focusKey =
    focused instanceof HTMLElement && oldBody.contains(focused) && focused.dataset.action
      ? `[data-action="${CSS.escape(focused.dataset.action)}"][data-value="${CSS.escape(focused.dataset.value ?? '')}"]`
      : null;
  oldBody.replaceWith(newBody);
  follow();
  existing.classList.remove('is-updated');
  void existing.offsetWidth; // restart the highlight animation
  existing.classList.add('is-updated');
  if (focusKey) {
    const again = newBody.querySelector(focusKey);
    if (again instanceof HTMLElement) again.focus();
    else input.focus();
  }
}

/** @param {string} channel */
function markUnread(channel) {
  const link = document.querySelector(`.channel-link[data-channel="${CSS.escape(channel)}"] .unread-dot`);
  if (link instanceof HTMLElement) link.hidden = false;
}

/** Re-reads the channel's history for the current user (after a reconnect, a user or channel switch). */
export async function reload() {
  const token = ++state.loadToken;
  const channel = state.channel;
  state.pending = [];
  try {
    const query = new URLSearchParams({ user: state.user, channel });
    const response = await fetch(`/playground/messages?${query}`);
    const data = await response.json();
    if (token !== state.loadToken) return;
    if (!response.ok) throw new Error(data?.error ?? `The server answered ${response.status}.`);
    const during = state.pending ?? [];
    state.pending = null;
    for (const old of messages.querySelectorAll(':scope > .msg')) old.remove();
    state.shown = channel;
    for (const view of data.messages) upsert(view);
    for (const view of during) upsert(view);
    scrollToBottom();
  } catch (error) {
    if (token === state.loadToken) state.pending = null;
    showError(error);
  }
}
