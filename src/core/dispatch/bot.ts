/**
 * The dispatcher: the one entry point adapters call. It parses, validates, runs the handler
 * (`guarded-run.ts`), and turns every failure into words (`failure-reply.ts`). Nothing here is
 * platform-specific.
 */
import type { ApprovedRunners } from '../approvals/runner-port.js';
import type { ActionSpec, CommandModule, CommandSpec, FormSpec, RawArgs } from '../parse/command-spec.js';
import { createRegistry, parseCommandText } from '../parse/parse-command.js';
import { validateArgs } from '../parse/validate-args.js';
import type { Logger } from '../ports/index.js';
import { askingTimeZone, type Replay } from '../settings/time-zone-question.js';
import type { Response, SelectOption } from '../text/cards.js';
import { say } from '../text/messages.js';
import type { CommandContext, CoreDeps, RequestInfo } from './context.js';
import { errorCard } from './error-card.js';
import { createGuardedRun, type GuardedRun } from './guarded-run.js';
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

/** What every entry point shares: the indexed modules, each request's context and the guarded run. */
interface Dispatch extends ReturnType<typeof indexModules> {
  deps: CoreDeps;
  log: Logger;
  open(req: RequestInfo): CommandContext;
  guarded(ctx: CommandContext, job: GuardedRun): Promise<Response>;
}

function createDispatch(
  deps: CoreDeps,
  modules: readonly CommandModule[],
  self: () => Bot | undefined,
): Dispatch {
  const indexed = indexModules(modules);
  const log = deps.logger.child({ component: 'core' });
  // Read at each request (not copied now): a test may swap `deps.apiFor` after the bot is made.
  const contexts = createRequestContexts(deps, indexed.approved, self);
  return { ...indexed, deps, log, open: contexts.open, guarded: createGuardedRun(deps, { contexts, log }) };
}

// A handler that needs a zone the member has not given gets the time-zone question (settings/time-zone-question.ts).
function asking(d: Dispatch, replay: Replay, job: () => Promise<Response> | Response) {
  return () => askingTimeZone({ replay, now: () => d.deps.clock.now() }, job);
}

/** A command with its arguments as read, before they are checked against its spec. */
interface Invocation {
  spec: CommandSpec;
  raw: RawArgs;
}

async function run(d: Dispatch, ctx: CommandContext, { spec, raw }: Invocation): Promise<Response> {
  const checked = validateArgs(spec, raw);
  const replay: Replay = { c: spec.name, a: raw };
  if (!checked.ok) {
    const form = spec.form;
    if (checked.error.code === 'missing-arg' && form)
      return await d.guarded(ctx, { label: spec.name, run: asking(d, replay, () => form(ctx, raw)), spec });
    d.deps.metrics?.command(spec.name, 'user_error');
    return errorCard(say(checked.error.code, checked.error.params), spec);
  }
  return await d.guarded(ctx, {
    label: spec.name,
    run: asking(d, replay, () =>
      answeringReplays(ctx, { c: spec.name, a: raw }, () => spec.run(ctx, checked.value as never)),
    ),
    spec,
  });
}

async function handleText(d: Dispatch, req: RequestInfo, text: string): Promise<Response> {
  const ctx = d.open(req);
  const parsed = parseCommandText(text, d.registry);
  if (!parsed.ok) {
    d.deps.metrics?.command('parse', 'user_error');
    const spec = d.registry.find(String(parsed.error.params.command ?? ''));
    return errorCard(say(parsed.error.code, parsed.error.params), spec);
  }
  return await run(d, ctx, parsed.value);
}

async function handleCommand(d: Dispatch, req: RequestInfo, { name, raw }: { name: string; raw: RawArgs }) {
  const ctx = d.open(req);
  const spec = d.registry.find(name);
  if (!spec) return errorCard(say('unknown-command', { command: name }));
  return await run(d, ctx, { spec, raw });
}

async function handleAction(d: Dispatch, req: RequestInfo, input: ActionInput): Promise<Response> {
  const ctx = d.open(req);
  const spec = d.actions.get(input.action);
  if (!spec) return errorCard(say('interaction-expired'));
  const replay: Replay = {
    x: input.action,
    v: input.value,
    ...(input.choice ? { h: input.choice } : {}),
  };
  return await d.guarded(ctx, {
    label: `action:${input.action}`,
    run: asking(d, replay, () => spec.run(ctx, input.value, input.choice)),
  });
}

async function handleForm(d: Dispatch, req: RequestInfo, submission: FormSubmission): Promise<Response> {
  const ctx = d.open(req);
  const spec = d.forms.get(submission.formId);
  if (!spec) return errorCard(say('interaction-expired'));
  const replay: Replay = { f: submission.formId, s: submission.state, v: submission.values };
  return await d.guarded(ctx, {
    label: `form:${submission.formId}`,
    run: asking(d, replay, () => spec.submit(ctx, submission.state, submission.values)),
  });
}

async function autocomplete(
  d: Dispatch,
  req: RequestInfo,
  input: AutocompleteInput,
): Promise<SelectOption[]> {
  const ctx = d.open(req);
  const option = d.registry.find(input.command)?.options.find((o) => o.name === input.option);
  if (!option) return [];
  try {
    return (await suggestFor(ctx, option, input.query)).slice(0, 25);
  } catch (error) {
    // Autocomplete must answer within Discord's window; a failure just offers nothing.
    d.log.debug({ err: error, option: input.option }, 'autocomplete failed');
    return [];
  }
}

export function createBot(deps: CoreDeps, modules: readonly CommandModule[]): Bot {
  let self: Bot | undefined;
  const d = createDispatch(deps, modules, () => self);
  const bot: Bot = {
    commands: d.commands,
    handleText: (req, text) => handleText(d, req, text),
    handleTooLong(_req, typed) {
      deps.metrics?.command('parse', 'user_error');
      return Promise.resolve(answerTooLong(typed, d.registry));
    },
    handleCommand: (req, name, raw) => handleCommand(d, req, { name, raw }),
    mayAnswerWithForm(name) {
      const spec = d.registry.find(name);
      return spec !== undefined && (spec.form !== undefined || spec.answersWithForm === true);
    },
    handleAction: (req, input) => handleAction(d, req, input),
    handleForm: (req, submission) => handleForm(d, req, submission),
    autocomplete: (req, input) => autocomplete(d, req, input),
  };
  self = bot;
  return bot;
}

/** The one shape of an error reply, re-exported for the adapters. */
export { errorCard } from './error-card.js';
