/**
 * The dispatcher: the one entry point adapters call. It parses, validates, runs the handler, and turns
 * every failure into words (user mistakes via the message table, API errors via `describeApiError`,
 * anything else logged once with a reference). Nothing here is platform-specific.
 */
import { randomUUID } from 'node:crypto';
import { describeApiError, isApiError } from './api-errors.js';
import type { ApprovedRunners } from './approvals/runner-port.js';
import type { Card, Response, SelectOption } from './cards.js';
import type { ActionSpec, CommandModule, CommandSpec, FormSpec, RawArgs } from './command-spec.js';
import { example, usage } from './command-usage.js';
import { type CommandContext, type CoreDeps, createContext, type RequestInfo, UserError } from './context.js';
import { isDatabaseBusy, retryWhileBusy } from './database-busy.js';
import { isInputMistake, say } from './messages.js';
import { type CommandRegistry, createRegistry, parseCommandText } from './parse/parse-command.js';
import { validateArgs } from './parse/validate-args.js';
import { trackRemoteWrites } from './remote-writes.js';
import { suggestFor } from './suggest.js';
import type { VideoApiFactory } from './video-api.js';

/**
 * How long a handler is tried again while the database is locked (issue 14). Slack and Discord are
 * acknowledged apart from the work (adapters), so this only bounds how long the member waits for an answer.
 */
const BUSY_BUDGET_MS = 2_500;

export interface ActionInput {
  action: string;
  value: string;
  /** The chosen option of a select. */
  choice?: string;
}

export interface FormSubmission {
  formId: string;
  state: string;
  values: Record<string, string>;
}

export interface AutocompleteInput {
  command: string;
  option: string;
  query: string;
}

export interface Bot {
  readonly commands: readonly CommandSpec[];
  /** `/reel …` text, as typed on Slack or the playground. */
  handleText(req: RequestInfo, text: string): Promise<Response>;
  /** A command whose arguments came as typed options (Discord). */
  handleCommand(req: RequestInfo, name: string, raw: RawArgs): Promise<Response>;
  /** Whether `name` may answer with a form (its `form`, or `answersWithForm`): see `CommandSpec`. */
  mayAnswerWithForm(name: string): boolean;
  handleAction(req: RequestInfo, input: ActionInput): Promise<Response>;
  handleForm(req: RequestInfo, submission: FormSubmission): Promise<Response>;
  autocomplete(req: RequestInfo, input: AutocompleteInput): Promise<SelectOption[]>;
}

export function createBot(deps: CoreDeps, modules: readonly CommandModule[]): Bot {
  const commands = modules.flatMap((m) => m.commands ?? []);
  const actions = new Map<string, ActionSpec>(
    modules.flatMap((m) => m.actions ?? []).map((a) => [a.action, a]),
  );
  const forms = new Map<string, FormSpec>(modules.flatMap((m) => m.forms ?? []).map((f) => [f.id, f]));
  const registry: CommandRegistry = createRegistry(commands);
  const approved: ApprovedRunners = Object.assign({}, ...modules.map((m) => m.approved ?? {}));
  const log = deps.logger.child({ component: 'core' });
  /** Per request: whether a call that changes something at the video service was sent. */
  const remoteWrites = new WeakMap<CommandContext, { sent: boolean }>();
  const sentRemoteWrite = (ctx: CommandContext) => remoteWrites.get(ctx)?.sent === true;

  /** A request's context whose API clients report their writes (see `remote-writes.ts`). */
  function open(req: RequestInfo): CommandContext {
    const writes = { sent: false };
    const apiFor: VideoApiFactory = (key) =>
      trackRemoteWrites(deps.apiFor(key), () => {
        writes.sent = true;
      });
    const ctx = createContext(req, { ...deps, apiFor, approved });
    remoteWrites.set(ctx, writes);
    return ctx;
  }

  async function guarded(
    label: string,
    ctx: CommandContext,
    run: () => Promise<Response> | Response,
    spec?: CommandSpec,
  ): Promise<Response> {
    try {
      // A locked database: run the whole handler again a little later, unless it already changed something
      // remotely (running it again could act twice; that case is left to the pending-effects record).
      const response = await retryWhileBusy(run, {
        clock: deps.clock,
        budgetMs: BUSY_BUDGET_MS,
        mayRetry: () => !sentRemoteWrite(ctx),
      });
      deps.metrics?.command(label, 'ok');
      return response;
    } catch (error) {
      return failure(label, ctx, error, spec);
    }
  }

  function failure(label: string, ctx: CommandContext, error: unknown, spec?: CommandSpec): Response {
    if (error instanceof UserError) {
      deps.metrics?.command(label, 'user_error');
      // Input mistakes found inside a command still get usage and an example; others (not found…) don't.
      return errorCard(say(error.code, error.params), isInputMistake(error.code) ? spec : undefined);
    }
    if (isApiError(error)) {
      deps.metrics?.command(label, 'api_error');
      log.warn(
        { command: label, errorType: error.type, status: error.status, requestId: error.details.requestId },
        'video API error',
      );
      return errorCard(describeApiError(error));
    }
    const ref = randomUUID().slice(0, 8);
    deps.metrics?.command(label, 'error');
    if (isDatabaseBusy(error) && !sentRemoteWrite(ctx)) {
      log.warn({ command: label, ref, code: (error as { code?: string }).code }, 'database locked; gave up');
      return errorCard(say('database-busy', { ref }));
    }
    log.error({ command: label, ref, err: error, user: ctx.req.user }, 'unexpected failure');
    // After a remote write "nothing was half-done" may be false: say what is known.
    return errorCard(say(sentRemoteWrite(ctx) ? 'internal-after-write' : 'internal', { ref }));
  }

  async function run(ctx: CommandContext, spec: CommandSpec, raw: RawArgs): Promise<Response> {
    const checked = validateArgs(spec, raw);
    if (!checked.ok) {
      const form = spec.form;
      if (checked.error.code === 'missing-arg' && form)
        return guarded(spec.name, ctx, () => form(ctx, raw), spec);
      deps.metrics?.command(spec.name, 'user_error');
      return errorCard(say(checked.error.code, checked.error.params), spec);
    }
    return guarded(spec.name, ctx, () => spec.run(ctx, checked.value as never), spec);
  }

  return {
    commands,
    async handleText(req, text) {
      const ctx = open(req);
      const parsed = parseCommandText(text, registry);
      if (!parsed.ok) {
        deps.metrics?.command('parse', 'user_error');
        const spec = registry.find(String(parsed.error.params.command ?? ''));
        return errorCard(say(parsed.error.code, parsed.error.params), spec);
      }
      return run(ctx, parsed.value.spec, parsed.value.raw);
    },
    async handleCommand(req, name, raw) {
      const ctx = open(req);
      const spec = registry.find(name);
      if (!spec) return errorCard(say('unknown-command', { command: name }));
      return run(ctx, spec, raw);
    },
    mayAnswerWithForm(name) {
      const spec = registry.find(name);
      return spec !== undefined && (spec.form !== undefined || spec.answersWithForm === true);
    },
    async handleAction(req, input) {
      const ctx = open(req);
      const spec = actions.get(input.action);
      if (!spec) return errorCard(say('interaction-expired'));
      return guarded(`action:${input.action}`, ctx, () => spec.run(ctx, input.value, input.choice));
    },
    async handleForm(req, submission) {
      const ctx = open(req);
      const spec = forms.get(submission.formId);
      if (!spec) return errorCard(say('interaction-expired'));
      return guarded(`form:${submission.formId}`, ctx, () =>
        spec.submit(ctx, submission.state, submission.values),
      );
    },
    async autocomplete(req, input) {
      const ctx = open(req);
      const option = registry.find(input.command)?.options.find((o) => o.name === input.option);
      if (!option) return [];
      try {
        return (await suggestFor(ctx, option, input.query)).slice(0, 25);
      } catch (error) {
        // Autocomplete must answer within Discord's window; a failure just offers nothing.
        log.debug({ err: error, option: input.option }, 'autocomplete failed');
        return [];
      }
    },
  };
}

/** The one shape of an error reply: visible to the caller only, with usage when a command is known. */
export function errorCard(text: string, spec?: CommandSpec): Response {
  const card: Card = { title: 'Not done', tone: 'danger', text };
  if (spec) {
    card.fields = [{ label: 'Usage', value: usage(spec) }];
    const first = spec.examples[0];
    if (first) card.fields.push({ label: 'Example', value: example(spec, first) });
  }
  return { kind: 'message', visibility: 'ephemeral', card };
}
