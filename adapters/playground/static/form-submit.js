// @ts-check
/*
 * A form's submission: its values, the text of its chosen files (checked here as the core would), and the
 * core's answer (the next page, its errors, or the dialog closed).
 */
import { clearFormErrors, showFormErrors } from './form-dialog.js';
import { formDialog } from './page.js';
import { handle, post } from './server.js';

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
      // A multi-select sends its choices comma-separated, as the core's `multiple` select reads them.
      values[element.name] =
        element instanceof HTMLSelectElement && element.multiple
          ? [...element.selectedOptions]
              .map((o) => o.value)
              .filter((v) => v !== '')
              .join(',')
          : element.value;
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
