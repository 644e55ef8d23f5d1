import type { CommandModule } from '../../parse/command-spec.js';
import { auditCommand } from './audit.js';

/** The audit trail (DESIGN §5). */
export const auditModule: CommandModule = { commands: [auditCommand] };
