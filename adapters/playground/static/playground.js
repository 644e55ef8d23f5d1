/*
 * reelbot playground page script. Vanilla, no build step. The server renders every message, card and
 * form as HTML; this script only moves that HTML into place (new message, edited card, thread reply),
 * sends what the user does as JSON, and keeps the page live over server-sent events.
 */

const page = document.body;
const state = {
  user: page.dataset.user ?? '',
  channel: page.dataset.channel ?? '',
  /** The channel whose history the message list holds: behind `channel` while a switch loads. */
  shown: page.dataset.channel ?? '',
  /** @type {EventSource | null} */
  source: null,
  /** Views that arrive while history is loading, re-applied on top of it. */
  /** @type {object[] | null} */
  pending: null,
  loadToken: 0,
  /** Threads the user collapsed, by parent message id (kept across reloads). */
  collapsed: new Set(),
  /** Commands sent from this tab, for ArrowUp/ArrowDown recall. */
  sent: [],
  recall: -1,
  /** The element to focus again when a dialog closes. */
  /** @type {HTMLElement | null} */
  returnFocus: null,
};

const messages = /** @type {HTMLElement} */ (document.getElementById('messages'));
const composer = /** @type {HTMLFormElement} */ (document.getElementById('composer'));
const input = /** @type {HTMLInputElement} */ (document.getElementById('composer-input'));
const sendButton = /** @type {HTMLButtonElement} */ (composer.querySelector('[data-testid="composer-send"]'));
const composerError = /** @type {HTMLElement} */ (composer.querySelector('[data-testid="composer-error"]'));
const formDialog = /** @type {HTMLDialogElement} */ (document.getElementById('form-dialog'));
const confirmDialog = /** @type {HTMLDialogElement} */ (document.getElementById('confirm-dialog'));
const connection = /** @type {HTMLElement} */ (document.querySelector('[data-testid="connection"]'));
const userSwitch = /** @type {HTMLSelectElement} */ (document.getElementById('user-switch'));
const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

// ---- rendering --------------------------------------------------------------------------------------

/** @param {string} html */
function fromHtml(html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  return /** @type {HTMLElement} */ (template.content.firstElementChild);
}

const nearBottom = () => messages.scrollHeight - messages.scrollTop - messages.clientHeight < 120;
const scrollToBottom = () => {
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
function localizeTimes(root) {
  for (const time of root.querySelectorAll('time[datetime]')) {
    const date = new Date(time.getAttribute('datetime') ?? '');
    if (Number.isNaN(date.getTime())) continue;
    time.textContent = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    time.setAttribute('title', date.toLocaleString());
  }
}

/** @param {Element} thread */
function refreshThread(thread) {
  const replies = thread.querySelector('.thread-replies');
  const toggle = thread.querySelector('.thread-toggle');
  if (!replies || !toggle) return;
  const count = replies.children.length;
  /** @type {HTMLElement} */ (thread).hidden = count === 0;
  toggle.textContent = threadLabel(count);
  const article = thread.closest('[data-message-id]');
  const collapsed = article ? state.collapsed.has(article.getAttribute('data-message-id')) : false;
  toggle.setAttribute('aria-expanded', String(!collapsed));
  /** @type {HTMLElement} */ (replies).hidden = collapsed;
}

/**
 * Puts a message view in place: a new message is appended (to its thread, if it has one); an edited
 * one keeps its position and thread, only its body is swapped. A view of another channel (a new message
 * there, or an edit of a card it shows, such as a video's card live in several channels) marks that
 * channel unread: opening it re-reads its history, which holds the card's current state.
 * @param {{ id: string; channel: string; threadOf?: string; html: string }} view
 */
function upsert(view) {
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
async function reload() {
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

// ---- talking to the server --------------------------------------------------------------------------

/**
 * @param {string} path
 * @param {Record<string, unknown>} payload
 */
async function post(path, payload) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: state.user, channel: state.channel, timeZone, ...payload }),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    // A proxy error page or a dropped connection: reported below with the status.
  }
  if (!response.ok || !data?.ok) throw new Error(data?.error ?? `The server answered ${response.status}.`);
  return data;
}

/**
 * Shows what the core answered.
 * @param {{ kind: string; messages?: any[]; form?: { html: string }; errors?: Record<string, string> }} reply
 * @param {{ messageId?: string }} origin
 */
function handle(reply, origin) {
  for (const view of reply.messages ?? []) upsert(view);
  if (reply.kind === 'form' && reply.form) openForm(reply.form.html, origin.messageId);
  if (reply.kind === 'form-errors' && reply.errors) {
    const form = formDialog.open ? formDialog.querySelector('form') : null;
    if (form) showFormErrors(form, reply.errors);
    else showError(new Error(Object.values(reply.errors).join(' ')));
  }
}

/** @param {unknown} error */
function showError(error) {
  composerError.textContent = error instanceof Error ? error.message : String(error);
  composerError.hidden = false;
}
const clearError = () => {
  composerError.hidden = true;
  composerError.textContent = '';
};

// ---- composer ---------------------------------------------------------------------------------------

composer.addEventListener('submit', async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (text === '' || composer.getAttribute('aria-busy') === 'true') return;
  state.sent.push(text);
  state.recall = -1;
  clearError();
  composer.setAttribute('aria-busy', 'true');
  sendButton.disabled = true;
  try {
    const reply = await post('/playground/command', { text });
    input.value = '';
    handle(reply, {});
    scrollToBottom();
  } catch (error) {
    showError(error);
  } finally {
    composer.removeAttribute('aria-busy');
    sendButton.disabled = false;
    if (!formDialog.open) input.focus();
  }
});

input.addEventListener('keydown', (event) => {
  if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
  if (state.sent.length === 0 || (input.value !== '' && state.recall === -1)) return;
  event.preventDefault();
  const last = state.sent.length - 1;
  if (event.key === 'ArrowUp') state.recall = state.recall === -1 ? last : Math.max(0, state.recall - 1);
  else state.recall = state.recall === -1 || state.recall >= last ? -1 : state.recall + 1;
  input.value = state.recall === -1 ? '' : (state.sent[state.recall] ?? '');
});

// ---- cards: buttons, selects, threads ---------------------------------------------------------------

/**
 * @param {HTMLButtonElement | HTMLSelectElement} control
 * @param {{ action: string; value: string; choice?: string }} click
 */
async function runAction(control, click) {
  const article = control.closest('[data-message-id]');
  const messageId = article?.getAttribute('data-message-id') ?? '';
  // In a panel of cards (the dashboard): the card clicked, so an update replaces only it.
  const item = control.closest('[data-card-index]');
  const cardIndex = item ? Number(item.getAttribute('data-card-index')) : undefined;
  clearError();
  control.disabled = true;
  control.setAttribute('aria-busy', 'true');
  try {
    const reply = await post('/playground/action', {
      messageId,
      ...click,
      ...(cardIndex !== undefined && Number.isInteger(cardIndex) ? { cardIndex } : {}),
    });
    handle(reply, { messageId });
  } catch (error) {
    showError(error);
  } finally {
    control.disabled = false;
    control.removeAttribute('aria-busy');
  }
}

/** @param {DOMStringMap} data */
function confirmWith(data) {
  const title = confirmDialog.querySelector('#confirm-title');
  const text = confirmDialog.querySelector('#confirm-text');
  const deny = confirmDialog.querySelector('[data-testid="confirm-deny"]');
  const accept = confirmDialog.querySelector('[data-testid="confirm-accept"]');
  if (title) title.textContent = data.confirmTitle ?? '';
  if (text) text.textContent = data.confirmText ?? '';
  if (deny) deny.textContent = data.confirmNo ?? 'Cancel';
  if (accept) accept.textContent = data.confirmYes ?? 'Confirm';
  confirmDialog.returnValue = '';
  confirmDialog.showModal();
  // The safe choice has focus, so a stray Enter does not confirm something irreversible.
  if (deny instanceof HTMLElement) deny.focus();
  return new Promise((resolve) => {
    confirmDialog.addEventListener('close', () => resolve(confirmDialog.returnValue === 'confirm'), {
      once: true,
    });
  });
}

messages.addEventListener('click', async (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const toggle = target.closest('.thread-toggle');
  if (toggle) {
    const article = toggle.closest('[data-message-id]');
    const id = article?.getAttribute('data-message-id') ?? '';
    if (state.collapsed.has(id)) state.collapsed.delete(id);
    else state.collapsed.add(id);
    const thread = toggle.closest('.thread');
    if (thread) refreshThread(thread);
    return;
  }
  const button = target.closest('button[data-action]');
  if (!(button instanceof HTMLButtonElement) || button.disabled) return;
  if (button.dataset.confirmTitle !== undefined) {
    state.returnFocus = button;
    const confirmed = await confirmWith(button.dataset);
    button.focus();
    if (!confirmed) return;
  }
  await runAction(button, { action: button.dataset.action ?? '', value: button.dataset.value ?? '' });
});

messages.addEventListener('change', async (event) => {
  const select = event.target;
  if (!(select instanceof HTMLSelectElement) || !select.dataset.action || select.value === '') return;
  // A select has no value of its own: the chosen option is both the value and the choice.
  await runAction(select, { action: select.dataset.action, value: select.value, choice: select.value });
});

// ---- forms (modal dialogs) --------------------------------------------------------------------------

/**
 * @param {string} html
 * @param {string | undefined} messageId the message whose button opened the form
 */
function openForm(html, messageId) {
  if (!formDialog.open) {
    state.returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : input;
  }
  formDialog.innerHTML = html;
  formDialog.dataset.messageId = messageId ?? '';
  const form = formDialog.querySelector('form');
  if (form) formDialog.setAttribute('aria-labelledby', form.getAttribute('aria-labelledby') ?? '');
  if (!formDialog.open) formDialog.showModal();
  const first = formDialog.querySelector('.input');
  if (first instanceof HTMLElement) first.focus();
}

/**
 * @param {HTMLFormElement} form
 * @param {Record<string, string>} errors
 */
function showFormErrors(form, errors) {
  /** @type {HTMLElement | null} */
  let firstInvalid = null;
  for (const [id, text] of Object.entries(errors)) {
    const slot =
      form.querySelector(`.form-error[data-input-id="${CSS.escape(id)}"]`) ??
      form.querySelector('.form-error-general');
    if (!(slot instanceof HTMLElement)) continue;
    slot.textContent = slot.hidden ? text : `${slot.textContent} ${text}`;
    slot.hidden = false;
    const field = form.querySelector(`[data-testid="form-input"][data-input-id="${CSS.escape(id)}"]`);
    if (field instanceof HTMLElement) {
      field.setAttribute('aria-invalid', 'true');
      firstInvalid ??= field;
    }
  }
  (firstInvalid ?? form.querySelector('.form-error:not([hidden])'))?.focus?.();
}

/** @param {HTMLFormElement} form */
function clearFormErrors(form) {
  for (const slot of form.querySelectorAll('.form-error')) {
    /** @type {HTMLElement} */ (slot).hidden = true;
    slot.textContent = '';
  }
  for (const field of form.querySelectorAll('[aria-invalid]')) field.removeAttribute('aria-invalid');
}

formDialog.addEventListener('click', (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest('[data-close]')) formDialog.close('cancel');
});

formDialog.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  event.preventDefault();
  const submit = form.querySelector('[data-testid="form-submit"]');
  if (submit instanceof HTMLButtonElement && submit.disabled) return;
  /** @type {Record<string, string>} */
  const values = {};
  for (const element of form.elements) {
    if (
      (element instanceof HTMLInputElement ||
        element instanceof HTMLTextAreaElement ||
        element instanceof HTMLSelectElement) &&
      element.name
    ) {
      values[element.name] = element.value;
    }
  }
  clearFormErrors(form);
  // File inputs: their text, read here, is the value; a refused file stops the submission.
  const uploads = await readUploads(form);
  if ('errors' in uploads) return showFormErrors(form, uploads.errors);
  Object.assign(values, uploads.values);
  const messageId = formDialog.dataset.messageId || undefined;
  if (submit instanceof HTMLButtonElement) submit.disabled = true;
  form.setAttribute('aria-busy', 'true');
  try {
    const reply = await post('/playground/form', {
      formId: form.dataset.formId ?? '',
      state: form.dataset.state ?? '',
      values,
      ...(messageId ? { messageId } : {}),
    });
    if (reply.kind === 'form-errors') return showFormErrors(form, reply.errors ?? {});
    if (reply.kind !== 'form') formDialog.close('submitted');
    handle(reply, messageId ? { messageId } : {});
  } catch (error) {
    showFormErrors(form, { '': error instanceof Error ? error.message : String(error) });
  } finally {
    if (submit instanceof HTMLButtonElement) submit.disabled = false;
    form.removeAttribute('aria-busy');
  }
});

/**
 * The text of each chosen file of a form's file inputs, checked as the core would: its type, its size and
 * UTF-8 text (words from the input's data attributes, which the server wrote from the core's messages).
 * @param {HTMLFormElement} form
 * @returns {Promise<{ values: Record<string, string> } | { errors: Record<string, string> }>}
 */
async function readUploads(form) {
  /** @type {Record<string, string>} */
  const values = {};
  /** @type {Record<string, string>} */
  const errors = {};
  for (const element of form.querySelectorAll('input[data-file-input]')) {
    if (!(element instanceof HTMLInputElement)) continue;
    const file = element.files?.[0];
    values[element.name] = '';
    if (!file) continue;
    const words = (/** @type {string} */ key, /** @type {number} */ length = 0) =>
      (element.dataset[key] ?? '').replaceAll('{name}', file.name).replaceAll('{length}', String(length));
    const accept = (element.dataset.accept ?? '').split(',');
    const max = Number(element.dataset.maxLength ?? '0');
    const extension = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : '';
    if (!accept.includes(extension)) {
      errors[element.name] = words('wrongType');
      continue;
    }
    let text = '';
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await file.arrayBuffer());
    } catch {
      errors[element.name] = words('notText');
      continue;
    }
    const length = [...text].length;
    if (text.includes('\u0000')) errors[element.name] = words('notText');
    else if (length > max) errors[element.name] = words('tooLarge', length);
    else values[element.name] = text;
  }
  return Object.keys(errors).length > 0 ? { errors } : { values };
}

formDialog.addEventListener('close', () => {
  formDialog.innerHTML = '';
  const back = state.returnFocus && document.contains(state.returnFocus) ? state.returnFocus : input;
  state.returnFocus = null;
  back.focus();
});

// ---- people and channels ----------------------------------------------------------------------------

function syncUrl() {
  const query = new URLSearchParams({ channel: state.channel, user: state.user });
  history.replaceState(null, '', `/?${query}`);
  for (const link of document.querySelectorAll('.channel-link')) {
    const channel = link.getAttribute('data-channel') ?? '';
    link.setAttribute('href', `/?${new URLSearchParams({ channel, user: state.user })}`);
  }
}

userSwitch.addEventListener('change', () => {
  state.user = userSwitch.value;
  page.dataset.user = state.user;
  if (formDialog.open) formDialog.close('cancel');
  syncUrl();
  connect(); // the new stream's `ready` reloads the history this person sees
});

document.querySelector('.channel-list')?.addEventListener('click', (event) => {
  const link = /** @type {HTMLElement} */ (event.target).closest('.channel-link');
  if (!(link instanceof HTMLAnchorElement)) return;
  event.preventDefault();
  const channel = link.dataset.channel ?? state.channel;
  state.channel = channel;
  page.dataset.channel = channel;
  for (const other of document.querySelectorAll('.channel-link')) {
    other.classList.toggle('is-current', other === link);
    if (other === link) other.setAttribute('aria-current', 'page');
    else other.removeAttribute('aria-current');
  }
  const dot = link.querySelector('.unread-dot');
  if (dot instanceof HTMLElement) dot.hidden = true;
  for (const name of document.querySelectorAll('[data-channel-name]')) name.textContent = channel;
  document.title = `#${channel} · reelbot playground`;
  input.setAttribute('placeholder', '/reel help');
  syncUrl();
  reload();
  input.focus();
});

// ---- live updates -----------------------------------------------------------------------------------

/** @param {'connecting' | 'live' | 'offline'} value */
function setConnection(value) {
  connection.dataset.state = value;
  connection.textContent = value === 'live' ? 'Live' : value === 'offline' ? 'Reconnecting…' : 'Connecting…';
}

function connect() {
  state.source?.close();
  setConnection('connecting');
  const source = new EventSource(`/playground/events?${new URLSearchParams({ user: state.user })}`);
  state.source = source;
  // Every (re)connection may have missed events: re-read the history, then apply live ones on top.
  source.addEventListener('ready', () => {
    setConnection('live');
    reload();
  });
  source.addEventListener('message', (event) => upsert(JSON.parse(event.data)));
  source.addEventListener('error', () => setConnection('offline'));
}

localizeTimes(document);
for (const thread of messages.querySelectorAll('.thread')) refreshThread(thread);
scrollToBottom();
connect();
input.focus();
