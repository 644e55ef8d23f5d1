import type { CommandModule } from '../../parse/command-spec.js';
import { createCancelAction, createCommand, createConfirmAction } from './create.js';
import { createForm } from './create-form.js';
import { deleteCancelAction, deleteCommand, deleteConfirmAction } from './delete.js';
import { editCancelAction, editCommand, editConfirmAction } from './edit.js';
import { episodesCommand, episodesPageAction } from './episodes.js';
import { generateAction, generateCancelAction, generateCommand, generateConfirmAction } from './generate.js';
import { listCommand } from './list.js';
import { pauseCommand } from './pause.js';
import { approved, effects } from './replays.js';
import { resumeCommand } from './resume.js';
import { pauseAction, resumeAction, resumeCancelAction, resumeConfirmAction } from './set-paused.js';
import { showCommand } from './show.js';

/** The series commands, their buttons and forms. */
export const seriesModule: CommandModule = {
  commands: [
    createCommand,
    listCommand,
    showCommand,
    editCommand,
    pauseCommand,
    resumeCommand,
    generateCommand,
    episodesCommand,
    deleteCommand,
  ],
  actions: [
    createConfirmAction,
    createCancelAction,
    editConfirmAction,
    editCancelAction,
    pauseAction,
    resumeAction,
    resumeConfirmAction,
    resumeCancelAction,
    generateAction,
    generateConfirmAction,
    generateCancelAction,
    episodesPageAction,
    deleteConfirmAction,
    deleteCancelAction,
  ],
  forms: [createForm],
  approved,
  effects,
};
