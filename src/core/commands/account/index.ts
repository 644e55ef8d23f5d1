import type { CommandModule } from '../../command-spec.js';

/** The account commands, their buttons and forms. */
export const accountModule: CommandModule = { commands: [], actions: [], forms: [] };
