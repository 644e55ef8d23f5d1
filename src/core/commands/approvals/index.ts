import type { CommandModule } from '../../parse/command-spec.js';
import { approvalsCommand } from './approvals.js';

/** The approvals inbox (DESIGN §5); the request card's buttons live in src/core/approvals. */
export const inboxModule: CommandModule = { commands: [approvalsCommand] };
