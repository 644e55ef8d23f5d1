// @ts-check
/*
 * Who the member acts as and which channel they look at (kept in the address), and the event stream that
 * keeps the page live.
 */
import { reload, upsert } from './message-list.js';
import { connection, formDialog, input, page, state, userSwitch } from './page.js';

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

export function connect() {
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
