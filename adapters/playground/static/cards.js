// @ts-check
/*
 * Cards: their buttons (asked first in the confirm dialog when the card says so), their selects, and the
 * thread toggles under a message.
 */
import { refreshThread } from './message-list.js';
import { clearError, confirmDialog, messages, showError, state } from './page.js';
import { handle, post } from './server.js';

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
