/**
 * Long text in: a script (10,000 characters) or a description (5,000) is longer than a chat
 * platform's form inputs take (Slack 3,000, Discord 4,000). Three ways in, every one checked before anything
 * is sent:
 * - a text file uploaded in the form (`FileInput`, id `<text id>_file`): the adapter downloads it and checks it
 *   with `readTextFile`, the form reads it with `uploadedOr`;
 * - the text split over consecutive inputs (`Script (part 1)`, `(part 2)`…), made by an adapter whose inputs
 *   are shorter than the core's limit (`splitInput`) and joined in order before the core sees them
 *   (`joinParts`);
 * - a file shared in the conversation, named by its link (`create --from-file <link>`): the platform reads it
 *   (`FileLinks` on the request); the core never fetches a URL itself.
 */

import { userError } from '../dispatch/context.js';
import type { FileLinks, TextFile } from '../ports/index.js';
import { SCRIPT_MAX } from '../videos/create-request.js';
import type { FileInput, FormInput, TextInput } from './cards.js';

export type { FileLinks, TextFile };

/** The text files accepted: plain text and markdown. */
export const TEXT_FILE_TYPES: readonly string[] = ['txt', 'md'];

/** `FileLinks` that stay out of `JSON.stringify(request)` (approvals and effects store requests). */
export const fileLinks = (read: FileLinks['read']): FileLinks =>
  Object.defineProperty({ read }, 'toJSON', { value: () => undefined, enumerable: false });

/** The file input that fills text input `input` with an uploaded file's text. */
export function fileFor(input: TextInput, label = `${input.label} as a file (.txt, .md)`): FileInput {
  return {
    kind: 'file',
    id: `${input.id}_file`,
    label,
    accept: TEXT_FILE_TYPES,
    maxLength: input.maxLength ?? SCRIPT_MAX,
    hint: `Or upload a .txt or .md file (UTF-8, up to ${(input.maxLength ?? SCRIPT_MAX).toLocaleString('en-US')} characters) instead of typing.`,
  };
}

/**
 * The inputs with an upload offered right after each text input named in `ids`. A required text input stays
 * required (it is labelled so): the file stands in for it, so no platform insists it be typed
 * (`mustBeTyped`), and the form's own check says when neither was given.
 */
export function withUploads(inputs: readonly FormInput[], ids: readonly string[]): FormInput[] {
  return inputs.flatMap((input) =>
    input.kind === 'text' && ids.includes(input.id) ? [input, fileFor(input)] : [input],
  );
}

/** Whether the form offers an upload standing in for text input `id` (`withUploads`). */
export const hasUpload = (inputs: readonly FormInput[], id: string): boolean =>
  inputs.some((i) => i.kind === 'file' && i.id === `${id}_file`);

/**
 * Whether a platform should refuse the form with `input` left empty: a required input, unless an upload may
 * stand in for it. Labels follow `required` itself: "Script" is required even when a file may replace it.
 */
export const mustBeTyped = (inputs: readonly FormInput[], input: FormInput): boolean =>
  input.required === true && !hasUpload(inputs, input.id);

/** A text input's value: the uploaded file's text when one came, else what was typed. */
export function uploadedOr(values: Readonly<Record<string, string>>, id: string): string {
  const uploaded = values[`${id}_file`];
  return uploaded !== undefined && uploaded.trim() !== '' ? uploaded : (values[id] ?? '');
}

/** `values` with every uploaded text moved onto the text input it stands for. */
export function withUploadedText(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, value] of Object.entries(values)) if (!id.endsWith('_file')) out[id] = value;
  for (const id of Object.keys(values))
    if (id.endsWith('_file')) out[id.slice(0, -'_file'.length)] = uploadedOr(values, id.slice(0, -5));
  return out;
}

// ---- split inputs ---------------------------------------------------------------------------------------

const PART = /^(.+)\.part(\d+)$/;

/** The id of part `n` (1-based) of input `id`: part 1 keeps the input's own id. */
export const partId = (id: string, n: number): string => (n === 1 ? id : `${id}.part${n}`);

/**
 * A text input cut into inputs of at most `max` characters each, enough of them for its `maxLength`:
 * `Script (part 1)`, `Script (part 2)`…; the initial text is cut across them. One input when it fits.
 */
export function splitInput(input: TextInput, max: number): TextInput[] {
  const total = input.maxLength ?? max;
  if (total <= max) return [input];
  const count = Math.ceil(total / max);
  const initial = [...(input.initial ?? '')];
  return Array.from({ length: count }, (_, i) => {
    const piece = initial.slice(i * max, (i + 1) * max).join('');
    const part: TextInput = {
      ...input,
      id: partId(input.id, i + 1),
      label: `${input.label} (part ${i + 1})`,
      maxLength: Math.min(max, total - i * max),
      required: i === 0 ? input.required === true : false,
    };
    delete part.initial;
    if (piece) part.initial = piece;
    if (i > 0) {
      delete part.minLength;
      delete part.placeholder;
      part.hint = `Continues part ${i}: the parts are joined in order.`;
    } else if (input.minLength !== undefined) part.minLength = Math.min(input.minLength, max);
    return part;
  });
}

/** Submitted values with the parts of each split input joined in order onto the input's own id. */
export function joinParts(values: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  const parts = new Map<string, { n: number; value: string }[]>();
  for (const [id, value] of Object.entries(values)) {
    const m = PART.exec(id);
    if (!m) {
      out[id] = value;
      continue;
    }
    const base = m[1] as string;
    parts.set(base, [...(parts.get(base) ?? []), { n: Number(m[2]), value }]);
  }
  for (const [base, rest] of parts) {
    const ordered = rest.sort((a, b) => a.n - b.n).map((p) => p.value);
    out[base] = [out[base] ?? '', ...ordered].join('');
  }
  return out;
}

// ---- checking a file ------------------------------------------------------------------------------------

/** The extension of a file name, lower-cased, without the dot ('' when none). */
const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
};

/** Bytes a file of `maxLength` characters may have at most (UTF-8: four bytes a character at worst). */
export const maxBytesFor = (maxLength: number): number => maxLength * 4;

/**
 * The text of an uploaded or linked file, or the user error saying why not: a type not accepted, not UTF-8
 * text, or longer than `maxLength` characters. A byte order mark is dropped; line endings are kept.
 */
export function readTextFile(
  file: { name: string; bytes: Uint8Array },
  check: { accept: readonly string[]; maxLength: number },
): TextFile {
  const accept = check.accept.map((a) => `.${a}`).join(' or ');
  if (!check.accept.includes(extensionOf(file.name)))
    throw userError('file-wrong-type', { name: file.name, accept });
  if (file.bytes.byteLength > maxBytesFor(check.maxLength))
    throw userError('file-too-large', {
      name: file.name,
      length: `more than ${check.maxLength}`,
      max: check.maxLength,
    });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(file.bytes);
  } catch {
    throw userError('file-not-text', { name: file.name });
  }
  // NUL bytes mean a binary file that happens to decode (an image, a PDF's streams rarely do).
  if (text.includes('\u0000')) throw userError('file-not-text', { name: file.name });
  const length = [...text].length;
  if (length > check.maxLength)
    throw userError('file-too-large', { name: file.name, length, max: check.maxLength });
  return { name: file.name, text };
}
