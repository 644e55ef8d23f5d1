/**
 * Scripts that come from elsewhere than the typed command: a text file shared in the conversation,
 * named by its link (`create --from-file <link>`), and a message turned into a video ("Make a video from
 * this": Slack's message shortcut, Discord's message command), which opens the create form prefilled.
 */

import { type CommandContext, userError } from '../../dispatch/context.js';
import type { ActionSpec } from '../../parse/command-spec.js';
import { TEXT_FILE_TYPES } from '../../text/long-text.js';
import { SCRIPT_MAX } from '../../videos/create-request.js';
import { createForm } from './create-form.js';

/** The action an adapter runs for "Make a video from this", with the message's text (and file's) as value. */
export const CREATE_FROM_MESSAGE_ACTION = 'video.create.from-message';

/**
 * The script a shared file holds, read by the platform (the core never fetches a link itself): a .txt or .md
 * file of UTF-8 text, at most the script's limit.
 */
export async function scriptFromLink(ctx: CommandContext, link: string): Promise<string> {
  const files = ctx.req.files;
  if (!files) throw userError('file-links-unsupported');
  const file = await files.read(link.trim(), { accept: TEXT_FILE_TYPES, maxLength: SCRIPT_MAX });
  return file.text;
}

/** "Make a video from this": the create form, its script the message's text (cut to the script's limit). */
export const createFromMessageAction: ActionSpec = {
  action: CREATE_FROM_MESSAGE_ACTION,
  run: (ctx, value) => createForm(ctx, { script: [...value.trim()].slice(0, SCRIPT_MAX).join('') }),
};
