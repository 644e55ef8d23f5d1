/**
 * A neutral `Form` → the contents of a modal `<dialog>`. The page script opens it with `showModal()`
 * (native focus trap and Escape), submits the values as JSON and shows `form-errors` in each input's
 * error slot. Every interpolated value is escaped.
 */
import escapeHtml from 'escape-html';
import type { FileInput, Form, FormAlert, FormInput } from '../../../src/core/index.js';
import { mustBeTyped, say } from '../../../src/core/index.js';
import { markdownToHtml } from '../text.js';

export function renderForm(form: Form): string {
  const titleId = `form-title-${slug(form.id)}`;
  return [
    `<form class="modal-form" method="dialog" data-testid="form" data-form-id="${escapeHtml(form.id)}" `,
    `data-state="${escapeHtml(form.state)}" aria-labelledby="${titleId}">`,
    '<header class="modal-header">',
    `<h2 id="${titleId}" data-testid="form-title">${escapeHtml(form.title)}</h2>`,
    '<button type="button" class="icon-button" data-close aria-label="Close" data-testid="form-close">×</button>',
    '</header>',
    '<div class="modal-body">',
    form.alert ? renderAlert(form.alert) : '',
    form.intro ? `<div class="form-intro">${markdownToHtml(form.intro)}</div>` : '',
    ...form.inputs.map((input) => renderInput(input, mustBeTyped(form.inputs, input))),
    '<p class="form-error form-error-general" data-testid="form-error" data-input-id="" role="alert" hidden></p>',
    '</div>',
    '<footer class="modal-footer">',
    '<button type="button" class="btn" data-close data-testid="form-cancel">Cancel</button>',
    `<button type="submit" class="btn btn-primary" data-testid="form-submit">${escapeHtml(form.submitLabel)}</button>`,
    '</footer>',
    '</form>',
  ].join('');
}

/** What screen readers call each level, before its text; a warning or error is announced as the dialog opens. */
const ALERT_LEVELS = {
  info: { name: 'Note', role: 'status' },
  warning: { name: 'Warning', role: 'alert' },
  error: { name: 'Error', role: 'alert' },
} as const;

/** The form's alert: set apart above the intro and the inputs, styled by its level. */
function renderAlert(alert: FormAlert): string {
  const level = ALERT_LEVELS[alert.level];
  return (
    `<div class="form-alert form-alert-${alert.level}" data-testid="form-alert" data-level="${alert.level}" role="${level.role}">` +
    `<strong class="form-alert-level">${level.name}</strong> ${markdownToHtml(alert.text)}</div>`
  );
}

/** One input; `insist`: the browser refuses the form with it empty (not when an upload may stand in). */
function renderInput(input: FormInput, insist: boolean): string {
  const id = `input-${slug(input.id)}`;
  const name = escapeHtml(input.id);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = `${input.hint ? `${hintId} ` : ''}${errorId}`;
  const required = insist ? ' required' : '';
  const common = `id="${id}" name="${name}" data-testid="form-input" data-input-id="${name}" aria-describedby="${described}"${required}`;
  let control: string;
  if (input.kind === 'select') {
    const chosen = new Set(input.multiple ? (input.initial ?? '').split(',') : [input.initial]);
    const hasInitial = input.options.some((o) => chosen.has(o.value));
    const options = input.options.map(
      (o) =>
        `<option value="${escapeHtml(o.value)}"${chosen.has(o.value) ? ' selected' : ''}>${escapeHtml(o.label)}` +
        `${o.description ? ` — ${escapeHtml(o.description)}` : ''}</option>`,
    );
    // An empty first choice: nothing is silently pre-picked unless the core gave an initial value.
    const blank =
      hasInitial && input.required
        ? ''
        : `<option value=""${hasInitial ? '' : ' selected'}>${escapeHtml(input.placeholder)}</option>`;
    // Several choices: the placeholder heads the list and cannot be chosen; the value is sent comma-separated.
    const heading = `<option value="" disabled>${escapeHtml(input.placeholder)}</option>`;
    control = input.multiple
      ? `<select class="input" multiple size="${Math.min(input.options.length + 1, 8)}" ${common}>${heading}${options.join('')}</select>`
      : `<select class="input" ${common}>${blank}${options.join('')}</select>`;
  } else if (input.kind === 'file') {
    control = fileControl(input, common);
  } else {
    // No `maxlength`: a browser cuts a longer paste silently; the core refuses it on this input, saying by how much.
    const limits =
      (input.maxLength !== undefined ? ` data-max-length="${Math.floor(input.maxLength)}"` : '') +
      (input.minLength !== undefined ? ` minlength="${Math.floor(input.minLength)}"` : '');
    const placeholder = input.placeholder ? ` placeholder="${escapeHtml(input.placeholder)}"` : '';
    const initial = input.initial ?? '';
    control = input.multiline
      ? `<textarea class="input" rows="4" ${common}${limits}${placeholder}>${escapeHtml(initial)}</textarea>`
      : `<input class="input" type="text" autocomplete="off" ${common}${limits}${placeholder} value="${escapeHtml(initial)}">`;
  }
  return [
    '<div class="form-field">',
    `<label for="${id}">${escapeHtml(input.label)}${input.required ? '' : ' <span class="optional">(optional)</span>'}</label>`,
    control,
    input.hint ? `<p class="hint" id="${hintId}">${markdownToHtml(input.hint)}</p>` : '',
    `<p class="form-error" id="${errorId}" data-testid="form-error" data-input-id="${name}" role="alert" hidden></p>`,
    '</div>',
  ].join('');
}

/**
 * A file input: the page script reads the chosen file in the browser and submits its text as the
 * input's value, refusing first (with these words, on this input) a wrong type, a file too large or one that
 * is not UTF-8 text; the core checks the length again.
 */
function fileControl(input: FileInput, common: string): string {
  const accept = input.accept.map((a) => `.${a}`).join(',');
  const name = '{name}';
  const words = {
    type: say('file-wrong-type', { name, accept: input.accept.map((a) => `.${a}`).join(' or ') }),
    large: say('file-too-large', { name, length: '{length}', max: input.maxLength }),
    text: say('file-not-text', { name }),
  };
  return (
    `<input class="input" type="file" accept="${escapeHtml(accept)}" ${common} data-file-input ` +
    `data-accept="${escapeHtml(input.accept.join(','))}" data-max-length="${Math.floor(input.maxLength)}" ` +
    `data-wrong-type="${escapeHtml(toPlainWords(words.type))}" data-too-large="${escapeHtml(toPlainWords(words.large))}" ` +
    `data-not-text="${escapeHtml(toPlainWords(words.text))}">`
  );
}

/** Card markdown of a message as plain words for a data attribute (code spans lose their backticks). */
const toPlainWords = (text: string): string => text.replace(/\\(.)/g, '$1').replace(/`/g, '');

/** Element ids from core ids: only safe characters, so they work in `for=` and CSS selectors. */
const slug = (id: string): string => id.replace(/[^A-Za-z0-9_-]/g, '_');
