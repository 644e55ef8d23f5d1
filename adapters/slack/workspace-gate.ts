/**
 * The first Bolt middleware: a request from a workspace the bot does not serve (`REELBOT_WORKSPACES`) gets
 * one private sentence and never reaches the listeners, so the core (and the team's key) never sees it.
 */
import type { AnyMiddlewareArgs, App, Context } from '@slack/bolt';
import { refusedWhere, say, type WorkspaceGate } from '../../src/core/index.js';
import { SLACK_CAPABILITIES } from './index.js';

type Loose = Record<string, unknown> & { team?: { id?: string }; team_id?: string; type?: string };

/**
 * The workspace a request comes from. The payload's team first: in a Slack Connect channel it is the acting
 * member's organisation, which must be allowed itself; then the installation's.
 */
const teamOf = (context: Context, body: Loose): string | undefined =>
  body.team_id ?? body.team?.id ?? context.teamId;

export function useWorkspaceGate(app: App, gate: WorkspaceGate): void {
  app.use(async (args) => {
    const { context, next } = args;
    const body = args.body as unknown as Loose;
    const team = teamOf(context, body);
    if (team === undefined || gate.allows('slack', team)) {
      await next();
      return;
    }
    await refuse(args, body);
  });
}

async function refuse(args: AnyMiddlewareArgs, body: Loose): Promise<void> {
  const text = say('workspace-not-allowed', { where: refusedWhere(SLACK_CAPABILITIES, '') });
  const ack = 'ack' in args ? (args.ack as (response?: unknown) => Promise<void>) : undefined;
  const respond =
    'respond' in args ? (args.respond as ((message: unknown) => Promise<unknown>) | undefined) : undefined;
  if ('command' in args) {
    await ack?.({ response_type: 'ephemeral', text });
    return;
  }
  await ack?.();
  // A click can be answered privately through its response_url; events and modals get nothing more.
  if (body.type === 'block_actions')
    await respond?.({ response_type: 'ephemeral', replace_original: false, text });
}
