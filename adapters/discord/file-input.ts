/**
 * Text files IN from Discord: a modal's file upload (inside its Label), an attachment given to
 * `/reel create file:` or named by its URL (`from-file:`), and "Make a video from this", the message command
 * that opens the create form prefilled with a message's text and its attached .txt. Attachments are
 * downloaded only from Discord's CDN (or, in tests, the fake Discord's own origin, the REST API's), counted
 * and cut off at the size cap (`bounded-download.ts`), and checked by the core's `readTextFile` (type, size,
 * UTF-8) before anything is sent on. A text input longer
 * than Discord's 4,000 characters is split into parts when the form still fits one modal (long-text.ts).
 */
import { type APIApplicationCommandAttachmentOption, ApplicationCommandOptionType } from 'discord.js';
import type { CardText, FileLinks, Form, FormInput, Response, TextFile } from '../../src/core/index.js';
import {
  CREATE_FROM_MESSAGE_ACTION,
  fileLinks,
  joinParts,
  maxBytesFor,
  readTextFile,
  SCRIPT_MAX,
  say,
  splitInput,
  TEXT_FILE_TYPES,
  UserError,
  userError,
} from '../../src/core/index.js';
import { downloadBounded } from '../../src/http/bounded-download.js';
import { DISCORD } from './limits.js';

/** An attachment as Discord resolves it (`resolved.attachments`, a message's `attachments`). */
export interface DiscordAttachment {
  id?: string;
  filename: string;
  size?: number;
  url: string;
}

/** The name of the message command (type 3) "Make a video from this". */
export const MAKE_VIDEO_COMMAND = 'Make a video from this';

/** The message command registered beside /reel (names of message commands take spaces and capitals). */
export const MAKE_VIDEO_COMMAND_PAYLOAD = {
  type: 3,
  name: MAKE_VIDEO_COMMAND,
  description: '',
  contexts: [0, 1],
} as const;

/** The attachment option of `/reel create`: its file's URL goes where `from-file` would. */
export const FILE_OPTION: APIApplicationCommandAttachmentOption = {
  type: ApplicationCommandOptionType.Attachment,
  name: 'file',
  description: 'A .txt or .md script file (instead of typing the script)',
  required: false,
};

const CDN_HOSTS = ['cdn.discordapp.com', 'media.discordapp.net'];

/** Whether `url` is on Discord's CDN, or on `apiOrigin` (the REST API's origin when it is not Discord's). */
function downloadable(url: string, apiOrigin: string | undefined): boolean {
  try {
    const u = new URL(url);
    if (u.protocol === 'https:' && CDN_HOSTS.includes(u.hostname)) return true;
    return apiOrigin !== undefined && u.origin === apiOrigin;
  } catch {
    return false;
  }
}

/** The REST API's origin when it is not Discord's own (the fake's in tests), else undefined. */
export function testOrigin(api: string | undefined): string | undefined {
  if (!api) return undefined;
  try {
    const origin = new URL(api).origin;
    return origin === 'https://discord.com' ? undefined : origin;
  } catch {
    return undefined;
  }
}

const nameFromUrl = (url: string): string => {
  try {
    return decodeURIComponent(new URL(url).pathname.split('/').pop() ?? 'file');
  } catch {
    return 'file';
  }
};

/** Downloads an attachment and reads its text, or throws the user error saying why not. */
export async function readAttachment(
  attachment: DiscordAttachment,
  check: { accept: readonly string[]; maxLength: number; apiOrigin: string | undefined },
): Promise<TextFile> {
  const name = attachment.filename;
  readTextFile({ name, bytes: new Uint8Array() }, check); // the type, before any download
  if ((attachment.size ?? 0) > maxBytesFor(check.maxLength))
    throw userError('file-too-large', { name, length: `more than ${check.maxLength}`, max: check.maxLength });
  if (!downloadable(attachment.url, check.apiOrigin))
    throw userError('file-not-found', { link: attachment.url });
  // A `from-file:` link carries no size: the download itself is counted and stopped at the cap.
  const got = await downloadBounded(attachment.url, { maxBytes: maxBytesFor(check.maxLength) });
  if (got.kind === 'too-large')
    throw userError('file-too-large', { name, length: `more than ${check.maxLength}`, max: check.maxLength });
  if (got.kind === 'failed') throw userError('file-not-found', { link: attachment.url });
  return readTextFile({ name, bytes: got.bytes }, check);
}

/** The request's file reader: an attachment URL on Discord's CDN (`from-file:`, or the `file:` option's). */
export function discordFileLinks(apiOrigin: string | undefined): FileLinks {
  return fileLinks((link, check) =>
    readAttachment({ filename: nameFromUrl(link), url: link }, { ...check, apiOrigin }),
  );
}

/**
 * The options of a command with its `file:` attachment turned into `from-file:` (the attachment's URL), which
 * the core reads through the request's file reader.
 */
export function withFileLink(
  options: Record<string, string | number | boolean>,
  attachments: Readonly<Record<string, DiscordAttachment>> | undefined,
): Record<string, string | number | boolean> {
  const id = options[FILE_OPTION.name];
  if (id === undefined) return options;
  const { [FILE_OPTION.name]: _id, ...rest } = options;
  const attachment = attachments?.[String(id)];
  return attachment ? { ...rest, 'from-file': attachment.url } : rest;
}

/**
 * A submission's values with each file input's attachment id replaced by the attachment itself (as JSON), so
 * it survives the pages of a form in pages until the last one is read.
 */
export function withAttachments(
  form: Form | undefined,
  values: Record<string, string>,
  attachments: Readonly<Record<string, DiscordAttachment>> | undefined,
): Record<string, string> {
  const out = { ...values };
  for (const input of form?.inputs ?? []) {
    const id = input.kind === 'file' ? values[input.id] : undefined;
    const attachment = id ? attachments?.[id] : undefined;
    if (attachment) out[input.id] = JSON.stringify(attachment);
  }
  return out;
}

const parseAttachment = (value: string | undefined): DiscordAttachment | undefined => {
  try {
    const a = JSON.parse(value ?? '') as Partial<DiscordAttachment>;
    return typeof a.url === 'string' && typeof a.filename === 'string'
      ? { filename: a.filename, url: a.url, ...(typeof a.size === 'number' ? { size: a.size } : {}) }
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A submitted modal's values with each uploaded file's text in place of its attachment and split parts
 * joined, or the form errors (on each refused input) when a file is refused: then nothing goes to the core.
 */
export async function readModalFiles(
  form: Form | undefined,
  submitted: Record<string, string>,
  apiOrigin: string | undefined,
): Promise<{ values: Record<string, string> } | { refused: Response }> {
  const values = { ...submitted };
  const errors: Record<string, CardText> = {};
  for (const input of form?.inputs ?? []) {
    if (input.kind !== 'file') continue;
    const attachment = parseAttachment(values[input.id]);
    values[input.id] = '';
    if (!attachment) continue;
    try {
      values[input.id] = (await readAttachment(attachment, { ...input, apiOrigin })).text;
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      errors[input.id] = say(error.code, error.params);
    }
  }
  if (Object.keys(errors).length > 0) return { refused: { kind: 'form-errors', errors } };
  return { values: joinParts(values) };
}

/**
 * The form as a modal shows it: a text input longer than Discord's is split into parts when the whole form
 * still fits one modal; otherwise (a form in pages) it keeps one input, and a file upload takes the rest.
 */
export function splitForModal(form: Form): Form {
  const inputs = form.inputs.flatMap((input): FormInput[] =>
    input.kind === 'text' ? splitInput(input, DISCORD.textInputValue) : [input],
  );
  if (inputs.length === form.inputs.length || inputs.length > DISCORD.modalComponents) return form;
  return { ...form, inputs };
}

/**
 * "Make a video from this": the value for the core's action — the message's text, then its first .txt/.md
 * attachment's (one that cannot be read is left out).
 */
export async function messageScript(
  message: { content: string; attachments: readonly DiscordAttachment[] },
  apiOrigin: string | undefined,
): Promise<{ action: string; value: string }> {
  const texts = [message.content.trim()];
  const file = message.attachments.find((a) =>
    TEXT_FILE_TYPES.some((t) => a.filename.toLowerCase().endsWith(`.${t}`)),
  );
  if (file) {
    try {
      texts.push(
        (await readAttachment(file, { accept: TEXT_FILE_TYPES, maxLength: SCRIPT_MAX, apiOrigin })).text,
      );
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
    }
  }
  return { action: CREATE_FROM_MESSAGE_ACTION, value: texts.filter((t) => t.trim() !== '').join('\n\n') };
}
