/**
 * An answer that carries a file (`card.attachment`, the `--csv` exports) goes out as a Discord attachment:
 * a multipart/form-data body with the file as `files[0]` and the message as `payload_json`, whose
 * `attachments` names it (https://discord.com/developers/docs/reference#uploading-files). A Components V2
 * message shows an attachment only through a File component (`type 13`) referencing
 * `attachment://<filename>` (https://discord.com/developers/docs/components/reference#file), so one is added
 * after the card; a message of the older shape (embeds) lists the attachment below the embed by itself.
 *
 * The interaction's callback is not always a REST call (HTTP interactions answer in the HTTP response, which
 * carries no file), so such an answer is always sent through the interaction's webhook after a deferral:
 * an edit of the (private) placeholder, or a public follow-up. Ephemeral answers keep their file private.
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
import type { Attachment, Logger, Response } from '../../src/core/index.js';
import { say } from '../../src/core/index.js';
import type { InboundBase } from './inbound.js';

/** The file a response carries, if any (only a new message can carry one). */
export const attachmentOf = (response: Response): Attachment | undefined =>
  response.kind === 'message' ? response.card.attachment : undefined;

/** The message body naming the attachment, with a File component when the message is Components V2. */
export function withFile(
  data: APIInteractionResponseCallbackData,
  file: Attachment,
): APIInteractionResponseCallbackData {
  const v2 = ((data.flags ?? 0) & MessageFlags.IsComponentsV2) !== 0;
  const shown: APIMessageTopLevelComponent = {
    type: ComponentType.File,
    file: { url: `attachment://${file.filename}` },
  };
  return {
    ...data,
    attachments: [{ id: '0', filename: file.filename }],
    ...(v2 ? { components: [...((data.components ?? []) as APIMessageTopLevelComponent[]), shown] } : {}),
  };
}

/**
 * The multipart/form-data body, built here rather than with the REST client's `files`: that path hands a
 * global `FormData` to the client's own undici, which (with two undici copies installed) may not recognise it.
 */
export function multipartBody(data: APIInteractionResponseCallbackData, file: Attachment) {
  const boundary = `reelbot-${randomBytes(12).toString('hex')}`;
  // Filenames are ours (csv.ts: letters, digits, dashes, dots); nothing in one can break the header.
  const name = file.filename.replace(/["\r\n\\]/g, '_');
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n` +
        `Content-Type: application/json\r\n\r\n${JSON.stringify(withFile(data, file))}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="files[0]"; filename="${name}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
      'utf8',
    ),
    Buffer.from(file.content, 'utf8'),
    Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  ]);
  return {
    body,
    passThroughBody: true,
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    auth: false,
  };
}

/** The message without its file, saying why (card markdown reads the same in Discord markdown). */
function withNotice(
  data: APIInteractionResponseCallbackData,
  notice: string,
): APIInteractionResponseCallbackData {
  if (((data.flags ?? 0) & MessageFlags.IsComponentsV2) === 0) return { ...data, content: notice };
  const text: APIMessageTopLevelComponent = { type: ComponentType.TextDisplay, content: notice };
  return { ...data, components: [...((data.components ?? []) as APIMessageTopLevelComponent[]), text] };
}

/**
 * The interaction's own webhook (as `payloads.ts`'s `webhook`), sending `file` with the edit or follow-up
 * when there is one. A refused upload still answers: the card without the file, saying it could not be sent
 * (the member is never left with "thinking…").
 */
export function fileWebhook(rest: REST, i: InboundBase, o: { file: Attachment | undefined; log: Logger }) {
  const { file, log } = o;
  const original = Routes.webhookMessage(i.applicationId, i.token, '@original');
  const send = async (
    go: (options: RequestData) => Promise<unknown>,
    data: APIInteractionResponseCallbackData,
  ) => {
    if (!file) return go({ body: data, auth: false });
    try {
      return await go(multipartBody(data, file));
    } catch (error) {
      const reason = String(
        (error as { code?: unknown; status?: unknown }).code ??
          (error as { status?: unknown }).status ??
          'error',
      );
      log.warn({ reason, filename: file.filename }, 'discord file upload refused');
      const notice = say('file-upload-failed', { filename: file.filename, reason });
      return go({ body: withNotice(data, notice), auth: false });
    }
  };
  return {
    edit: (data: APIInteractionResponseCallbackData) => send((r) => rest.patch(original, r), data),
    remove: () => rest.delete(original, { auth: false }),
    followUp: (data: APIInteractionResponseCallbackData) =>
      send((r) => rest.post(Routes.webhook(i.applicationId, i.token), r), data),
  };
}
