/**
 * An answer that carries a file (`card.attachment`, the `--csv` exports): uploaded with `files.uploadV2`
 * (https://docs.slack.dev/messaging/working-with-files#upload: `files.getUploadURLExternal` → the bytes to
 * the upload URL → `files.completeUploadExternal`), the card's title and text as the initial comment.
 *
 * - A channel answer goes into the conversation (`channel_id`).
 * - An answer only the caller should see cannot be an ephemeral file (Slack has none), so the card and its
 *   file go to the member's DM with the bot (the card is posted to the user id, which lands in the app's DM
 *   and names its channel id, so no `im:write`), and the caller is told privately where they asked. Asked
 *   in that DM itself, the card and the file are the answer.
 * - A failed upload (the bot is not in the channel, a missing scope) falls back to the DM; when that fails
 *   too, the caller is told privately, the file is never pasted into message text.
 */

import type { Card, CardText, Clock, Logger, Visibility } from '../../src/core/index.js';
import { literal, md, say } from '../../src/core/index.js';
import { describeSlackError } from './errors.js';
import type { Surface } from './present.js';
import { cardToMessage } from './render.js';
import { replyEphemeral } from './replies.js';
import { escapeMrkdwn, toMrkdwn, toPlain, truncateMrkdwn } from './text.js';

/** Slack's longest initial comment is not documented; a message's text limit is a safe bound. */
const COMMENT_MAX = 3_900;

export interface FileAnswer {
  clock: Clock;
  log: Logger;
  card: Card;
  visibility: Visibility;
  surface: Surface;
}

/** Sends the card with its file; never throws for a refused upload (the caller is told instead). */
export async function answerWithFile(o: FileAnswer): Promise<void> {
  const { card, surface } = o;
  const attachment = card.attachment;
  if (!attachment) return;
  const here = o.visibility === 'channel' && surface.channel !== undefined ? surface.channel : undefined;
  if (here) {
    try {
      await upload(o, here);
      return;
    } catch (error) {
      o.log.warn({ slackError: describeSlackError(error).code }, 'file upload into the channel failed');
    }
  }
  try {
    const dm = await postInDm(o);
    await upload({ ...o, card: { title: literal(attachment.filename), attachment } }, dm);
    // Asked in that DM: the upload is the answer. Elsewhere: a private note says where the file is.
    if (dm !== surface.channel) await privately(o, say('file-in-dm', { filename: attachment.filename }));
  } catch (error) {
    const reason = describeSlackError(error).code;
    o.log.warn({ slackError: reason }, 'file upload into the DM failed');
    await privately(o, say('file-upload-failed', { filename: attachment.filename, reason }));
  }
}

/** Posts the card (what the file holds) in the member's DM with the bot; answers the DM's channel id. */
async function postInDm(o: FileAnswer): Promise<string> {
  const { attachment: _file, ...card } = o.card;
  const posted = await o.surface.client.chat.postMessage({ channel: o.surface.user, ...cardToMessage(card) });
  if (!posted.channel) throw new Error('chat.postMessage named no channel');
  return posted.channel;
}

async function upload(o: FileAnswer, channel: string): Promise<void> {
  const attachment = o.card.attachment;
  if (!attachment) return;
  const comment = [`*${escapeMrkdwn(toPlain(o.card.title))}*`, o.card.text ? toMrkdwn(o.card.text) : '']
    .filter(Boolean)
    .join('\n');
  await o.surface.client.files.uploadV2({
    channel_id: channel,
    filename: attachment.filename,
    title: attachment.filename,
    content: attachment.content,
    initial_comment: truncateMrkdwn(comment, COMMENT_MAX),
  });
}

/** The card without its file, plus a sentence about the file, to the caller only. */
async function privately(o: FileAnswer, notice: CardText): Promise<void> {
  const { attachment: _file, ...card } = o.card;
  const text = card.text ? md`${card.text}\n${notice}` : notice;
  await replyEphemeral(o.clock, o.surface, cardToMessage({ ...card, text }));
}
