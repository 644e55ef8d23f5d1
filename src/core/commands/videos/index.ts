import type { CommandModule } from '../../command-spec.js';

/** The videos commands, their buttons and forms. */
export const videosModule: CommandModule = { commands: [], actions: [], forms: [] };
