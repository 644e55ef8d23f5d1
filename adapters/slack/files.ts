/**
 * Text files IN from Slack: a modal's `file_input` upload and a file shared in the conversation,
 * named by its permalink (`create --from-file <link>`). Both are downloaded from `url_private` with the bot
 * token (https://docs.slack.dev/messaging/working-with-files#authenticating), counted and cut off at the
 * size cap (`bounded-download.ts`), and checked by the core's `readTextFile` (type, size, UTF-8) before
 * anything is sent on. Only Slack's file host (or, in tests, the
 * Web API's own origin) is ever fetched.
 */
import type { webApi } from '@slack/bolt';
import type { FileLinks, TextFile } from '../../src/core/index.js';
import { fileLinks, maxBytesFor, readTextFile, UserError, userError } from '../../src/core/index.js';
import { downloadBounded } from '../../src/http/bounded-download.js';

/** A file as Slack describes it (a `file_input`'s files, `files.info`, a message's `files`). */
export interface SlackFile {
  id?: string;
  name?: string;
  title?: string;
  size?: number;
  url_private?: string;
  url_private_download?: string;
  channels?: string[];
  groups?: string[];
  ims?: string[];
}

/** What a check of a file needs: which extensions, how many characters. */
export interface FileCheck {
  accept: readonly string[];
  maxLength: number;
}

/** Slack's own file host; the only one a download goes to, besides the Web API's origin (a test's fake). */
const SLACK_FILES = 'https://files.slack.com';

/** The origins a `url_private` may be on, for a client (its `slackApiUrl` is the fake's in tests). */
function allowedOrigins(client: webApi.WebClient): string[] {
  const origins = [SLACK_FILES];
  try {
    const api = new URL(client.slackApiUrl).origin;
    if (api !== 'https://slack.com') origins.push(api);
  } catch {
    // No usable API URL: Slack's host only.
  }
  return origins;
}

const nameOf = (file: SlackFile): string => file.name ?? file.title ?? file.id ?? 'file';

/**
 * Downloads a Slack file with the bot token and reads its text, or throws the user error saying why not.
 * A file larger than the text could be is refused by its size before any byte is fetched.
 */
export async function readSlackFile(
  file: SlackFile,
  access: { client: webApi.WebClient; token: string | undefined },
  check: FileCheck,
): Promise<TextFile> {
  const name = nameOf(file);
  // The type first: a wrong file is refused without a download.
  readTextFile({ name, bytes: new Uint8Array() }, { accept: check.accept, maxLength: check.maxLength });
  if ((file.size ?? 0) > maxBytesFor(check.maxLength))
    throw userError('file-too-large', { name, length: `more than ${check.maxLength}`, max: check.maxLength });
  const url = file.url_private_download ?? file.url_private;
  if (!url || !access.token || !allowedOrigins(access.client).includes(safeOrigin(url)))
    throw userError('file-not-found', { link: name });
  // The size Slack reports may be missing or wrong: the download itself is counted and stopped at the cap.
  const got = await downloadBounded(url, {
    maxBytes: maxBytesFor(check.maxLength),
    headers: { authorization: `Bearer ${access.token}` },
  });
  if (got.kind === 'too-large')
    throw userError('file-too-large', { name, length: `more than ${check.maxLength}`, max: check.maxLength });
  if (got.kind === 'failed') throw userError('file-not-found', { link: name });
  return readTextFile({ name, bytes: got.bytes }, check);
}

const safeOrigin = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/** The file id in a Slack permalink (`https://team.slack.com/files/U1/F0123ABC/script.txt`) or a bare id. */
export function fileIdOf(link: string): string | undefined {
  const bare = /^F[A-Z0-9]{6,}$/.exec(link.trim());
  if (bare) return bare[0];
  try {
    const url = new URL(link.trim());
    const parts = url.pathname.split('/').filter(Boolean);
    const at = parts.indexOf('files');
    const id = parts.slice(at + 1).find((p) => /^F[A-Z0-9]{6,}$/.test(p));
    return at >= 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether Slack says the file is shared in `channel` (an unknown sharing counts as no). */
const sharedIn = (file: SlackFile, channel: string): boolean =>
  [...(file.channels ?? []), ...(file.groups ?? []), ...(file.ims ?? [])].includes(channel);

/**
 * The request's file reader: a permalink of a file shared in this conversation, looked up with `files.info`
 * and downloaded with the bot token. A file of another conversation is not found (it is not the member's to
 * read through the bot).
 */
export function slackFileLinks(access: {
  client: webApi.WebClient;
  token: string | undefined;
  channel: string;
}): FileLinks {
  return fileLinks(async (link, check) => {
    const id = fileIdOf(link);
    if (!id) throw userError('file-not-found', { link });
    let file: SlackFile | undefined;
    try {
      const info = await access.client.files.info({ file: id });
      file = info.file as SlackFile | undefined;
    } catch (error) {
      if (error instanceof UserError) throw error;
      file = undefined;
    }
    if (!file || !sharedIn(file, access.channel)) throw userError('file-not-found', { link });
    return readSlackFile(file, access, check);
  });
}
