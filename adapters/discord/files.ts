/**
 * An answer that carries files (`card.attachment`, the `--csv` exports; a PNG of each of the card's charts)
 * goes out with Discord attachments: a multipart/form-data body with the files as `files[n]` and the message as
 * `payload_json`, whose `attachments` names them (https://discord.com/developers/docs/reference#uploading-files).
 * A Components V2 message shows an attachment only through a component referencing `attachment://<filename>`:
 * an export through a File component (`type 13`, added after the card here), a chart through the card's media
 * gallery (components.ts); a message of the older shape (embeds) lists the attachments below the embed.
 *
 * The interaction's callback is not always a REST call (HTTP interactions answer in the HTTP response, which
 * carries no file), so such an answer is always sent through the interaction's webhook after a deferral:
 * an edit of the (private) placeholder, or a public follow-up. Ephemeral answers keep their file private.
 * The outbox's channel posts and edits (sender.ts) send a card's charts the same way (`sendWithFiles`).
 */
import { randomBytes } from 'node:crypto';
import {
  type APIInteractionResponseCallbackData,
  type APIMessageTopLevelComponent,
  ComponentType,
  MessageFlags,
  type REST,
  type RequestData,
  Routes,
} from 'discord.js';
import type { Card, Logger, Response } from '../../src/core/index.js';
import { chartText, say } from '../../src/core/index.js';
import type { InboundBase } from './inbound.js';
import { DISCORD } from './limits.js';

/** A file sent with a message: an export shown as a File component, or a chart the card's gallery shows. */
export interface Upload {
  filename: string;
  content: string | Uint8Array;
  contentType: string;
  /** Alt text (a chart's numbers), at most 1,024 characters. */
  description?: string;
  /** `file`: listed by a File component added here; `gallery`: the card's media gallery already shows it. */
  shownAs: 'file' | 'gallery';
}

/** Where a card's chart is attached: the name its media gallery refers to (`attachment://chart-1.png`). */
export const chartFilename = (index: number): string => `chart-${index + 1}.png`;

/** Whether a response carries files, which only a webhook edit or follow-up can send (after a deferral). */
export const carriesFiles = (response: Response): boolean =>
  (response.kind === 'message' && response.card.attachment !== undefined) ||
  ((response.kind === 'message' || response.kind === 'update') && (response.card.charts?.length ?? 0) > 0);

/** The files a response carries: its export (a new message only) and a PNG of each of its charts. */
export async function uploadsOf(response: Response): Promise<Upload[]> {
  if (response.kind !== 'message' && response.kind !== 'update') return [];
  const uploads = await chartUploads(response.card);
  const file = response.kind === 'message' ? response.card.attachment : undefined;
  if (file) uploads.unshift({ ...file, shownAs: 'file' });
  return uploads;
}

/** A PNG of each of `card`'s charts (drawn on first use: the chart libraries load only then). */
export async function chartUploads(card: Card): Promise<Upload[]> {
  if (!card.charts?.length) return [];
  const { renderChartPng } = await import('../../src/charts/render-png.js');
  return Promise.all(
    card.charts.slice(0, DISCORD.chartsPerCard).map(async (chart, i) => ({
      filename: chartFilename(i),
      content: await renderChartPng(chart),
      contentType: 'image/png',
      description: chartText(chart).slice(0, DISCORD.mediaDescription),
      shownAs: 'gallery' as const,
    })),
  );
}

/**
 * A message body that can carry files: an interaction answer's, or a channel message's (a post with its nonce,
 * an edit resetting `content`).
 */
export type FileBody = Omit<APIInteractionResponseCallbackData, 'content' | 'flags'> & {
  content?: string | null | undefined;
  flags?: number | null | undefined;
  nonce?: string;
  enforce_nonce?: boolean;
};

/** A file a message holds already, as Discord lists it (`attachments[]` of a message). */
export interface Attached {
  id: string;
  filename: string;
}

/**
 * The message body naming its files, with a File component for each export when the message is Components V2.
 * On an edit Discord keeps only the attachments listed: `keep` are the message's files that stay (by id), the
 * uploads are added after them.
 */
export function withFiles<B extends FileBody>(
  data: B,
  uploads: readonly Upload[],
  keep: readonly { id: string }[] = [],
): B & Pick<APIInteractionResponseCallbackData, 'attachments'> {
  const v2 = ((data.flags ?? 0) & MessageFlags.IsComponentsV2) !== 0;
  const shown: APIMessageTopLevelComponent[] = uploads
    .filter((u) => u.shownAs === 'file')
    .map((u) => ({ type: ComponentType.File, file: { url: `attachment://${u.filename}` } }));
  return {
    ...data,
    attachments: [
      ...keep.map((k) => ({ id: k.id })),
      ...uploads.map((u, i) => ({
        id: String(i),
        filename: u.filename,
        ...(u.description ? { description: u.description } : {}),
      })),
    ],
    ...(v2 && shown.length > 0
      ? { components: [...((data.components ?? []) as APIMessageTopLevelComponent[]), ...shown] }
      : {}),
  };
}

/**
 * The multipart/form-data body, built here rather than with the REST client's `files`: that path hands a
 * global `FormData` to the client's own undici, which (with two undici copies installed) may not recognise it.
 */
export function multipartBody(
  data: FileBody,
  uploads: readonly Upload[],
  o: { keep?: readonly { id: string }[]; auth?: boolean } = {},
) {
  const boundary = `reelbot-${randomBytes(12).toString('hex')}`;
  const part = (headers: string) => Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`, 'utf8');
  const body = Buffer.concat([
    part('Content-Disposition: form-data; name="payload_json"\r\nContent-Type: application/json'),
    Buffer.from(`${JSON.stringify(withFiles(data, uploads, o.keep))}\r\n`, 'utf8'),
    ...uploads.flatMap((u, i) => [
      // Filenames are ours (csv.ts, chartFilename): nothing in one can break the header.
      part(
        `Content-Disposition: form-data; name="files[${i}]"; filename="${u.filename.replace(/["\r\n\\]/g, '_')}"\r\n` +
          `Content-Type: ${u.contentType}`,
      ),
      typeof u.content === 'string' ? Buffer.from(u.content, 'utf8') : Buffer.from(u.content),
      Buffer.from('\r\n', 'utf8'),
    ]),
    Buffer.from(`--${boundary}--\r\n`, 'utf8'),
  ]);
  return {
    body,
    passThroughBody: true,
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    // Interaction webhooks take no bot token; channel messages need it.
    auth: o.auth ?? false,
  };
}

/** The message without the media gallery that showed its charts (their files were refused). */
function withoutGallery<B extends FileBody>(data: B): B {
  const strip = (components: readonly APIMessageTopLevelComponent[]): APIMessageTopLevelComponent[] =>
    components
      .filter(
        (c) => !(c.type === ComponentType.MediaGallery && c.items.some((item) => isChart(item.media.url))),
      )
      .map((c) =>
        c.type === ComponentType.Container
          ? { ...c, components: strip(c.components) as typeof c.components }
          : c,
      );
  return data.components
    ? { ...data, components: strip(data.components as APIMessageTopLevelComponent[]) }
    : data;
}

const isChartFile = (filename: string): boolean => /^chart-\d+\.png$/.test(filename);
const isChart = (url: string): boolean =>
  url.startsWith('attachment://') && isChartFile(url.slice('attachment://'.length));

/**
 * What an edit that uploads no chart lists in `attachments`, given the files the message holds: when some are
 * chart PNGs (the card had charts, the new one has none), the other files, kept by id, so the charts go and the
 * message's files agree with its card. `undefined` when there is no chart to drop: the edit leaves the files
 * alone, as before charts existed.
 */
export function droppingCharts(held: readonly Attached[] | undefined): { id: string }[] | undefined {
  if (!held?.some((a) => isChartFile(a.filename))) return undefined;
  return held.filter((a) => !isChartFile(a.filename)).map((a) => ({ id: a.id }));
}

/** An edit uploading nothing, listing the files that stay when the message `held` charts (`droppingCharts`). */
export function listingKept<B extends FileBody>(data: B, held: readonly Attached[] | undefined): B {
  const listed = droppingCharts(held);
  return listed ? { ...data, attachments: listed } : data;
}

/** The message without its file, saying why (card markdown reads the same in Discord markdown). */
function withNotice<B extends FileBody>(data: B, notice: string): B {
  if (((data.flags ?? 0) & MessageFlags.IsComponentsV2) === 0) return { ...data, content: notice };
  const text: APIMessageTopLevelComponent = { type: ComponentType.TextDisplay, content: notice };
  return { ...data, components: [...((data.components ?? []) as APIMessageTopLevelComponent[]), text] };
}

/** How a message goes out with its files (`sendWithFiles`). */
export interface FileSending {
  uploads: readonly Upload[];
  /**
   * The files of the message an edit replaces, when known (the clicked message of an interaction): its charts
   * follow the card (replaced by the new ones, or dropped), its other files stay.
   */
  held?: readonly Attached[] | undefined;
  log: Logger;
  /** Whether the request takes the bot token: channel messages do, interaction webhooks do not. */
  auth: boolean;
  /** Whether a failure refused the files (the message then goes without them); every failure unless said. */
  refusedFiles?: (error: unknown) => boolean;
  /** What the message then says (default: the member's answer lost its file, try again). */
  notice?: 'file-upload-failed' | 'card-files-refused';
}

/**
 * Sends a message (a post or an edit, through `go`) with its files: multipart when there are some. When Discord
 * refuses them, the message still goes, without its files and saying which could not be sent (a member is never
 * left with "thinking…", a live card never missing).
 */
export async function sendWithFiles<T>(
  go: (options: RequestData) => Promise<T>,
  data: FileBody,
  o: FileSending,
): Promise<T> {
  const { uploads, log, auth } = o;
  const keep = (o.held ?? []).filter((a) => !isChartFile(a.filename)).map((a) => ({ id: a.id }));
  if (uploads.length === 0) return go({ body: listingKept(data, o.held), auth });
  try {
    return await go(multipartBody(data, uploads, { auth, keep }));
  } catch (error) {
    if (o.refusedFiles && !o.refusedFiles(error)) throw error;
    const reason = String(
      (error as { code?: unknown; status?: unknown }).code ??
        (error as { status?: unknown }).status ??
        'error',
    );
    const filename = uploads.map((u) => u.filename).join(', ');
    log.warn({ reason, filename }, 'discord file upload refused');
    const notice = say(o.notice ?? 'file-upload-failed', { filename, reason });
    // Listing only what stays: an edit's files from before go too (the card no longer shows them).
    const without = { ...withNotice(withoutGallery(data), notice), attachments: keep };
    return go({ body: without, auth });
  }
}

/**
 * The interaction's own webhook (as `payloads.ts`'s `webhook`), sending `uploads` with the edit or follow-up
 * when there are some (`sendWithFiles`); `held`: the files of the message an edit replaces, when known.
 */
export function fileWebhook(
  rest: REST,
  i: InboundBase,
  o: { uploads: readonly Upload[]; held?: readonly Attached[] | undefined; log: Logger },
) {
  const original = Routes.webhookMessage(i.applicationId, i.token, '@original');
  const sending: FileSending = { uploads: o.uploads, log: o.log, auth: false };
  return {
    edit: (data: APIInteractionResponseCallbackData) =>
      sendWithFiles((r) => rest.patch(original, r), data, { ...sending, held: o.held }),
    remove: () => rest.delete(original, { auth: false }),
    followUp: (data: APIInteractionResponseCallbackData) =>
      sendWithFiles((r) => rest.post(Routes.webhook(i.applicationId, i.token), r), data, sending),
  };
}
