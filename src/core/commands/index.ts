/**
 * Every command module, in the order `help` lists them. Each group folder holds one command per file.
 */
import { approvalsModule } from '../approvals/index.js';
import { typedAgainAction } from '../dispatch/typed-replay.js';
import type { EffectRunners } from '../effects/reconcile.js';
import type { CommandModule } from '../parse/command-spec.js';
import { accountModule } from './account/index.js';
import { inboxModule } from './approvals/index.js';
import { auditModule } from './audit/index.js';
import { publishingModule } from './publishing/index.js';
import { seriesModule } from './series/index.js';
import { videosModule } from './videos/index.js';

export const MODULES: readonly CommandModule[] = [
  videosModule,
  publishingModule,
  seriesModule,
  accountModule,
  auditModule,
  approvalsModule,
  inboxModule,
  // "Publish again" on the answer to a replayed typed command (typed-replay.ts).
  { actions: [typedAgainAction] },
];

/** How each group finishes a write whose local record failed (`effects/reconcile.ts`), by command. */
export const EFFECT_RUNNERS: EffectRunners = Object.assign({}, ...MODULES.map((m) => m.effects ?? {}));
