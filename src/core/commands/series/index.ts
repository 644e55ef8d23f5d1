import type { CommandModule } from '../../command-spec.js';

/** The series commands, their buttons and forms. */
export const seriesModule: CommandModule = { commands: [], actions: [], forms: [] };
