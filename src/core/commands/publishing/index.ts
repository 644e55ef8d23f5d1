import type { CommandModule } from '../../command-spec.js';

/** The publishing commands, their buttons and forms. */
export const publishingModule: CommandModule = { commands: [], actions: [], forms: [] };
