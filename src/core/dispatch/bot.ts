/**
 * The dispatcher: the one entry point adapters call. It parses, validates, runs the handler
 * (`guarded-run.ts`), and turns every failure into words (`failure-reply.ts`). Nothing here is
 * platform-specific.
 */
import type { ApprovedRunners } from '../approvals/runner-port.js';
import type { ActionSpec, CommandModule, CommandSpec, FormSpec, RawArgs } from '../parse/command-spec.js';
import { createRegistry, parseCommandText } from '../parse/parse-command.js';
import { validateArgs } from '../parse/validate-args.js';
import { askingTimeZone, type Replay } from '../settings/time-zone-question.js';
import type { Response, SelectOption } from '../text/cards.js';
import { say } from '../text/messages.js';
import type { CommandContext, CoreDeps, RequestInfo } from './context.js';
import { errorCard } from './error-card.js';
import { createGuardedRun } from './guarded-run.js';
import { createRequestContexts } from './request-context.js';
import { suggestFor } from './suggest.js';
import { answeringReplays } from './typed-replay.js';
import { answerTooLong, type TooLongText } from './typed-too-long.js';

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
  /**
   * A typed command longer than the platform takes, which the adapter does not deliver: answered with the
   * field's limit and the way round (the form, a file), never run.
   */
  handleTooLong(req: RequestInfo, typed: TooLongText): Promise<Response>;
  /** A command whose arguments came as typed options (Discord). */
  handleCommand(req: RequestInfo, name: string, raw: RawArgs): Promise<Response>;
  /** Whether `name` may answer with a form (its `form`, or `answersWithForm`): see `CommandSpec`. */
  mayAnswerWithForm(name: string): boolean;
  handleAction(req: RequestInfo, input: ActionInput): Promise<Response>;
  handleForm(req: RequestInfo, submission: FormSubmission): Promise<Response>;
  autocomplete(req: RequestInfo, input: AutocompleteInput): Promise<SelectOption[]>;
}

/** The handlers, forms and approved runners the command modules register, indexed for dispatch. */
function indexModules(modules: readonly CommandModule[]) {
  const commands = modules.flatMap((m) => m.commands ?? []);
  return {
    commands,
    registry: createRegistry(commands),
    actions: new Map<string, ActionSpec>(modules.flatMap((m) => m.actions ?? []).map((a) => [a.action, a])),
    forms: new Map<string, FormSpec>(modules.flatMap((m) => m.forms ?? []).map((f) => [f.id, f])),
    approved: Object.assign({}, ...modules.map((m) => m.approved ?? {})) as ApprovedRunners,
  };
}

export function createBot(deps: CoreDeps, modules: readonly CommandModule[]): Bot {
  const { commands, registry, actions, forms, approved } = indexModules(modules);
  const log = deps.logger.child({ component: 'core' });
  let self: Bot | undefined;
  // Read at each request (not copied now): a test may swap `deps.apiFor` after the bot is made.
  const contexts = createRequestContexts(deps, approved, () => self);
  const open = contexts.open;
  const guarded = createGuardedRun(deps, { contexts, log });

  // A handler that needs a zone the member has not given gets the time-zone question (settings/time-zone-question.ts).
  const asking = (replay: Replay, job: () => Promise<Response> | Response) => () =>
    askingTimeZone({ replay, now: () => deps.clock.now() }, job);

  async function run(ctx: CommandContext, spec: CommandSpec, raw: RawArgs): Promise<Response> {
    const checked = validateArgs(spec, raw);
    const replay: Replay = { c: spec.name, a: raw };
    if (!checked.ok) {
      const form = spec.form;
      if (checked.error.code === 'missing-arg' && form)
        return guarded(ctx, { label: spec.name, run: asking(replay, () => form(ctx, raw)), spec });
      deps.metrics?.command(spec.name, 'user_error');
      return errorCard(say(checked.error.code, checked.error.params), spec);
    }
    return guarded(ctx, {
      label: spec.name,
      run: asking(replay, () =>
        answeringReplays(ctx, { c: spec.name, a: raw }, () => spec.run(ctx, checked.value as never)),
      ),
      spec,
    });
  }

  const bot: Bot = {
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
    async handleTooLong(_req, typed) {
      deps.metrics?.command('parse', 'user_error');
      return answerTooLong(typed, registry);
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
      const replay: Replay = {
        x: input.action,
        v: input.value,
        ...(input.choice ? { h: input.choice } : {}),
      };
      return guarded(ctx, {
        label: `action:${input.action}`,
        run: asking(replay, () => spec.run(ctx, input.value, input.choice)),
      });
    },
    async handleForm(req, submission) {
      const ctx = open(req);
      const spec = forms.get(submission.formId);
      if (!spec) return errorCard(say('interaction-expired'));
      const replay: Replay = { f: submission.formId, s: submission.state, v: submission.values };
      return guarded(ctx, {
        label: `form:${submission.formId}`,
        run: asking(replay, () => spec.submit(ctx, submission.state, submission.values)),
      });
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
  self = bot;
  return bot;
}

/** The one shape of an error reply, re-exported for the adapters. */
export { errorCard } from './error-card.js';
