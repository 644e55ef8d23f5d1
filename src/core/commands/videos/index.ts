import type { CommandModule } from '../../parse/command-spec.js';
import { captionCommand } from './caption.js';
import { createCommand } from './create.js';
import { createCancelAction, createConfirmAction } from './create-confirm.js';
import { createFormSpec } from './create-form.js';
import { createFromMessageAction } from './create-from.js';
import { createOptionsAction, createOptionsForm } from './create-options.js';
import { deleteCancelAction, deleteCommand, deleteConfirmAction } from './delete.js';
import { videosCommand, videosPageAction } from './list.js';
import { renameCommand } from './rename.js';
import { renderAction, renderCommand } from './render.js';
import { approved, effects } from './replays.js';
import { videosSearchAction } from './search.js';
import { showAction, showCommand } from './show.js';
import { showHereAction, statusCommand } from './status.js';
import { thumbnailPickAction } from './thumbnail-pick.js';
import { thumbnailsAction, thumbnailsCommand } from './thumbnails.js';

/** The videos commands, their buttons and forms. */
export const videosModule: CommandModule = {
  commands: [
    createCommand,
    captionCommand,
    statusCommand,
    videosCommand,
    showCommand,
    thumbnailsCommand,
    renameCommand,
    renderCommand,
    deleteCommand,
  ],
  actions: [
    createConfirmAction,
    createCancelAction,
    createOptionsAction,
    createFromMessageAction,
    videosPageAction,
    videosSearchAction,
    showAction,
    showHereAction,
    thumbnailsAction,
    thumbnailPickAction,
    renderAction,
    deleteConfirmAction,
    deleteCancelAction,
  ],
  forms: [createFormSpec, createOptionsForm],
  approved,
  effects,
};
