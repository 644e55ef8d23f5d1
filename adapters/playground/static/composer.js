// @ts-check
/*
 * The composer: a typed command is sent, and ArrowUp/ArrowDown recall the ones this tab sent.
 */
import { scrollToBottom } from './message-list.js';
import { clearError, composer, formDialog, input, sendButton, showError, state } from './page.js';
import { handle, post } from './server.js';

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
