/**
 * The dispatcher: the one entry point adapters call. It parses, validates, runs the handler, and turns
 * every failure into words (user mistakes via the message table, API errors via `describeApiError`,
 * anything else logged once with a reference). Nothing here is platform-specific.
 */
import { randomUUID } from 'node:crypto';
import { describeApiError, isApiError } from './api-errors.js';
import type { Card, Response, SelectOption } from './cards.js';
import type { ActionSpec, CommandModule, CommandSpec, FormSpec, RawArgs } from './command-spec.js';
import { usageOf } from './command-spec.js';
import { type CommandContext, type CoreDeps, createContext, type RequestInfo, UserError } from './context.js';
import { isInputMistake, say } from './messages.js';
import { type CommandRegistry, createRegistry, parseCommandText } from './parse/parse-command.js';
import { validateArgs } from './parse/validate-args.js';
import { suggestFor } from './suggest.js';

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
  const log = deps.logger.child({ component: 'core' });

  async function guarded(
    label: string,
    ctx: CommandContext,
    run: () => Promise<Response> | Response,
    spec?: CommandSpec,
  ): Promise<Response> {
    try {
      const response = await run();
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
    log.error({ command: label, ref, err: error, user: ctx.req.user }, 'unexpected failure');
    return errorCard(say('internal', { ref }));
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
      const ctx = createContext(req, deps);
      const parsed = parseCommandText(text, registry);
      if (!parsed.ok) {
        deps.metrics?.command('parse', 'user_error');
        const spec = registry.find(String(parsed.error.params.command ?? ''));
        return errorCard(say(parsed.error.code, parsed.error.params), spec);
      }
      return run(ctx, parsed.value.spec, parsed.value.raw);
    },
    async handleCommand(req, name, raw) {
      const ctx = createContext(req, deps);
      const spec = registry.find(name);
      if (!spec) return errorCard(say('unknown-command', { command: name }));
      return run(ctx, spec, raw);
    },
    mayAnswerWithForm(name) {
      const spec = registry.find(name);
      return spec !== undefined && (spec.form !== undefined || spec.answersWithForm === true);
    },
    async handleAction(req, input) {
      const ctx = createContext(req, deps);
      const spec = actions.get(input.action);
      if (!spec) return errorCard(say('interaction-expired'));
      return guarded(`action:${input.action}`, ctx, () => spec.run(ctx, input.value, input.choice));
    },
    async handleForm(req, submission) {
      const ctx = createContext(req, deps);
      const spec = forms.get(submission.formId);
      if (!spec) return errorCard(say('interaction-expired'));
      return guarded(`form:${submission.formId}`, ctx, () =>
        spec.submit(ctx, submission.state, submission.values),
      );
    },
    async autocomplete(req, input) {
      const ctx = createContext(req, deps);
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
    card.fields = [{ label: 'Usage', value: `\`/reel ${usageOf(spec)}\`` }];
    const example = spec.examples[0];
    if (example) card.fields.push({ label: 'Example', value: `\`/reel ${example}\`` });
  }
  return { kind: 'message', visibility: 'ephemeral', card };
}
