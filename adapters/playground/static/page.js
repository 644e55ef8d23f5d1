// @ts-check
/*
 * The page's elements and this tab's state, shared by every part of the script, and the one line where an
 * error is shown (under the composer).
 */

/**
 * A message as the server rendered it: the same view arrives from history, from a POST's answer and from
 * the event stream.
 * @typedef {{ id: string; channel: string; threadOf?: string; html: string }} MessageView
 */

export const page = document.body;
export const state = {
  user: page.dataset.user ?? '',
  channel: page.dataset.channel ?? '',
  /** The channel whose history the message list holds: behind `channel` while a switch loads. */
  shown: page.dataset.channel ?? '',
  /** @type {EventSource | null} */
  source: null,
  /** Views that arrive while history is loading, re-applied on top of it. */
  /** @type {MessageView[] | null} */
  pending: null,
  loadToken: 0,
  /** Threads the user collapsed, by parent message id (kept across reloads). */
  /** @type {Set<string>} */
  collapsed: new Set(),
  /** Commands sent from this tab, for ArrowUp/ArrowDown recall. */
  /** @type {string[]} */
  sent: [],
  recall: -1,
  /** The element to focus again when a dialog closes. */
  /** @type {HTMLElement | null} */
  returnFocus: null,
};

export const messages = /** @type {HTMLElement} */ (document.getElementById('messages'));
export const composer = /** @type {HTMLFormElement} */ (document.getElementById('composer'));
export const input = /** @type {HTMLInputElement} */ (document.getElementById('composer-input'));
export const sendButton = /** @type {HTMLButtonElement} */ (
  composer.querySelector('[data-testid="composer-send"]')
);
const composerError = /** @type {HTMLElement} */ (composer.querySelector('[data-testid="composer-error"]'));
export const formDialog = /** @type {HTMLDialogElement} */ (document.getElementById('form-dialog'));
export const confirmDialog = /** @type {HTMLDialogElement} */ (document.getElementById('confirm-dialog'));
export const connection = /** @type {HTMLElement} */ (document.querySelector('[data-testid="connection"]'));
export const userSwitch = /** @type {HTMLSelectElement} */ (document.getElementById('user-switch'));
export const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** @param {unknown} error */
export function showError(error) {
  composerError.textContent = error instanceof Error ? error.message : String(error);
  composerError.hidden = false;
}
export const clearError = () => {
  composerError.hidden = true;
  composerError.textContent = '';
};
