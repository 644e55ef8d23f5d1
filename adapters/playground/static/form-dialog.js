// @ts-check
/*
 * The form dialog: a form from the server opened in place of the page, its errors shown beside its inputs,
 * and focus handed back where it was when it closes.
 */
import { formDialog, input, state } from './page.js';

/**
 * @param {string} html
 * @param {string | undefined} messageId the message whose button opened the form
 */
export function openForm(html, messageId) {
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
export function showFormErrors(form, errors) {
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
export function clearFormErrors(form) {
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

formDialog.addEventListener('close', () => {
  formDialog.innerHTML = '';
  const back = state.returnFocus && document.contains(state.returnFocus) ? state.returnFocus : input;
  state.returnFocus = null;
  back.focus();
});
