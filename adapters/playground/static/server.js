// @ts-check
/*
 * Talking to the server: what the member does is POSTed as JSON, and the core's answer (messages, a form,
 * a form's errors) is shown where it belongs.
 */
import { openForm, showFormErrors } from './form-dialog.js';
import { upsert } from './message-list.js';
import { formDialog, showError, state, timeZone } from './page.js';

/**
 * What the core answered, as the server sends it.
 * @typedef {{
 *   kind: string;
 *   messages?: import('./page.js').MessageView[];
 *   form?: { html: string };
 *   errors?: Record<string, string>;
 * }} Reply
 */

/**
 * @param {string} path
 * @param {Record<string, unknown>} payload
 * @returns {Promise<Reply>}
 */
export async function post(path, payload) {
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
 * @param {Reply} reply
 * @param {{ messageId?: string }} origin
 */
export function handle(reply, origin) {
  for (const view of reply.messages ?? []) upsert(view);
  if (reply.kind === 'form' && reply.form) openForm(reply.form.html, origin.messageId);
  if (reply.kind === 'form-errors' && reply.errors) {
    const form = formDialog.open ? formDialog.querySelector('form') : null;
    if (form) showFormErrors(form, reply.errors);
    else showError(new Error(Object.values(reply.errors).join(' ')));
  }
}
