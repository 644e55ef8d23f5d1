import type { CommandSpec } from '../parse/command-spec.js';
import type { Logger } from '../ports/index.js';
import type { Response } from '../text/cards.js';
import type { CommandContext, CoreDeps } from './context.js';
import { retryWhileBusy } from './database-busy.js';
import { failureReply } from './failure-reply.js';
import type { RequestContexts } from './request-context.js';

/**
 * How long a handler is tried again while the database is locked. Slack and Discord are
 * acknowledged apart from the work (adapters), so this only bounds how long the member waits for an answer.
 */
const BUSY_BUDGET_MS = 2_500;

/** One handler run: what to count it as, the handler, and the command it belongs to (if any). */
export interface GuardedRun {
  label: string;
  run: () => Promise<Response> | Response;
  spec?: CommandSpec | undefined;
}

/** Runs a handler, counts its outcome, and turns any failure into a reply (see `failure-reply.ts`). */
export function createGuardedRun(
  deps: CoreDeps,
  { contexts, log }: { contexts: RequestContexts; log: Logger },
): (ctx: CommandContext, job: GuardedRun) => Promise<Response> {
  return async (ctx, { label, run, spec }) => {
    try {
      // A locked database: run the whole handler again a little later, unless it already changed something
      // remotely (running it again could act twice; that case is left to the pending-effects record).
      const response = await retryWhileBusy(run, {
        clock: deps.clock,
        budgetMs: BUSY_BUDGET_MS,
        mayRetry: () => !contexts.sentRemoteWrite(ctx),
      });
      deps.metrics?.command(label, 'ok');
      return response;
    } catch (error) {
      const afterWrite = contexts.sentRemoteWrite(ctx);
      return failureReply(
        { metrics: deps.metrics, log },
        { label, error, spec, user: ctx.req.user, afterWrite },
      );
    }
  };
}
