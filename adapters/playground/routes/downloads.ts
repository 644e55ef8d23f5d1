/**
 * Files sent with a card (`card.attachment`, the `--csv` exports): the card shows a download link, and
 * `GET /playground/download?channel=C&id=M` serves that message's file. A private message's file is served
 * only to a browser session its member acted in (`sessions.ts`), as its card is shown only to them: the link
 * itself names nobody and opens nothing. A message dropped from the history (or one without a file) has none
 * to serve.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import escapeHtml from 'escape-html';
import type { ChatRoom } from '../chat-room.js';
import type { PlaygroundMessage } from '../message-log.js';
import type { PlaygroundSessions } from '../sessions.js';
import { json, methodNotAllowed } from './replies.js';

export const DOWNLOAD_PATH = '/playground/download';

/** Where the file of `message` is served, if it carries one. */
export function downloadHref(message: PlaygroundMessage): string | undefined {
  if (message.kind !== 'card' || !message.card.attachment) return undefined;
  const query = new URLSearchParams({ channel: message.channel, id: message.id });
  return `${DOWNLOAD_PATH}?${query.toString()}`;
}

/** The link under a card that carries a file (empty for any other message). */
export function downloadLink(message: PlaygroundMessage): string {
  const href = downloadHref(message);
  if (message.kind !== 'card' || !href || !message.card.attachment) return '';
  const name = message.card.attachment.filename;
  return (
    `<p class="card-file"><a href="${escapeHtml(href)}" download="${escapeHtml(name)}" data-testid="card-file">` +
    `⬇ ${escapeHtml(name)}</a></p>`
  );
}

/** Serves the file of one message, to whoever may see that message. */
export function serveDownload(
  o: { room: ChatRoom; sessions: PlaygroundSessions; req: IncomingMessage; url: URL },
  res: ServerResponse,
): void {
  const method = o.req.method;
  if (method !== 'GET' && method !== 'HEAD') {
    methodNotAllowed(res, 'GET');
    return;
  }
  const channel = o.url.searchParams.get('channel') ?? '';
  const id = o.url.searchParams.get('id') ?? '';
  const message = o.room.log.get(channel, id);
  const visible = message && (message.visibleTo === undefined || o.sessions.actsAs(o.req, message.visibleTo));
  const file = visible && message.kind === 'card' ? message.card.attachment : undefined;
  if (!file) {
    json(res, 404, {
      ok: false,
      error: 'No file here: the message is gone from the history, or carries none. Run the command again.',
    });
    return;
  }
  const body = Buffer.from(file.content, 'utf8');
  res.writeHead(200, {
    'content-type': file.contentType,
    'content-length': String(body.length),
    // Our filenames are letters, digits, dashes and dots (csv.ts); quoted all the same.
    'content-disposition': `attachment; filename="${file.filename.replace(/["\\\r\n]/g, '_')}"`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(method === 'HEAD' ? undefined : body);
}
