/**
 * Command metadata: one declaration per command drives the text parser, `help`, the Discord command
 * registration (options, choices, autocomplete) and the typed arguments a handler receives.
 */
import type { ApprovedRunners } from '../approvals/runner-port.js';
import type { CommandContext } from '../dispatch/context.js';
import type { EffectRunners } from '../effects/reconcile.js';
import type { Response } from '../text/cards.js';
import type { CardText } from '../text/text.js';
import type { OptionKind as CatalogKind, Platform } from '../video-api/video-api.js';

/**
 * How a value is read. References (`video`, `series`) accept an id, a unique name prefix or `last`;
 * `voice`/`account` accept a name or id and get autocomplete on Discord.
 */
export type OptionKind =
  | 'string'
  | 'text'
  | 'int'
  | 'boolean'
  | 'choice'
  | 'video'
  | 'series'
  | 'voice'
  | 'account'
  | 'platform'
  | 'platforms'
  | 'when'
  | 'date'
  | 'url';

export interface OptionSpec {
  readonly name: string;
  readonly kind: OptionKind;
  readonly description: string;
  /** Positional arguments come first in text, in declaration order; the rest are `--flags`. */
  readonly positional?: boolean;
  /** A positional that takes every remaining word (scripts, free text). */
  readonly rest?: boolean;
  readonly required?: boolean;
  readonly choices?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** Max length of string values. */
  readonly maxLength?: number;
  /**
   * Accepted in text but never offered: not in help, not registered as a Discord option (e.g. `link`'s
   * catch-all that exists only so a pasted key is refused rather than echoed).
   */
  readonly hidden?: boolean;
  /**
   * A value that must never be typed in a channel (an API key): it goes through a private form only (DESIGN
   * §5), so no platform offers it as an option of its own (Discord's registration leaves it out).
   */
  readonly secret?: boolean;
  /**
   * The API catalog (GET /options?kind=…) whose values this option takes: suggested while typing on Discord,
   * offered as a select in forms, listed by `options <kind>`.
   */
  readonly catalog?: CatalogKind;
  /**
   * Rarely used: typed as `--flag` in text and set in forms, but not a typed option of its own on Discord
   * (Discord's registration has a size cap); there it goes through the command's `more` option as text flags.
   */
  readonly advanced?: boolean;
}

type ValueOf<O extends OptionSpec> = O['kind'] extends 'int'
  ? number
  : O['kind'] extends 'boolean'
    ? boolean
    : O['kind'] extends 'platforms'
      ? Platform[]
      : O['kind'] extends 'platform'
        ? Platform
        : O['choices'] extends readonly (infer C extends string)[]
          ? C
          : string;

/** The typed arguments of a command, inferred from its option declarations. */
export type ArgsOf<Opts extends readonly OptionSpec[]> = {
  [O in Opts[number] as O['name']]: O['required'] extends true ? ValueOf<O> : ValueOf<O> | undefined;
};

/** Loosely typed argument bag as adapters and the parser produce it (validated by `validateArgs`). */
export type RawArgs = Record<string, string | number | boolean | string[] | undefined>;

export interface CommandSpec<Opts extends readonly OptionSpec[] = readonly OptionSpec[]> {
  /** `create`, or `series create` for grouped commands. */
  readonly name: string;
  readonly summary: string;
  readonly options: Opts;
  readonly examples: readonly string[];
  /** Longer help shown by `help <command>`: card markdown. */
  readonly details?: CardText;
  /** Opens this form instead of a usage error when a required argument is missing. */
  readonly form?: (ctx: CommandContext, partial: RawArgs) => Promise<Response> | Response;
  /**
   * `run` itself may answer with a form (not only `form` above). Discord can show a form only as its very
   * first answer, so its adapter waits for the core's answer on these instead of acknowledging first.
   */
  readonly answersWithForm?: boolean;
  /** Replies visible only to the caller (default) or to the channel; a fixed answer may be returned as is. */
  run(ctx: CommandContext, args: ArgsOf<Opts>): Promise<Response> | Response;
}

/** Declares a command with its option types inferred (`as const` not needed at the call site). */
export function defineCommand<const Opts extends readonly OptionSpec[]>(
  spec: CommandSpec<Opts>,
): CommandSpec {
  return spec as unknown as CommandSpec;
}

/** `series create` → { group: 'series', sub: 'create' } */
export function splitName(name: string): { group?: string; sub: string } {
  const [first, second] = name.split(' ');
  return second ? { group: first as string, sub: second } : { sub: first as string };
}

/**
 * A click handler. `value` is the control's value (opaque ids); `choice` the picked option of a select.
 * Whoever clicks is re-authorised: the handler uses `ctx.api()`, the clicker's own key.
 */
export interface ActionSpec {
  readonly action: string;
  run(ctx: CommandContext, value: string, choice?: string): Promise<Response> | Response;
}

/** A form submission handler; `state` is the form's opaque state, `values` keyed by input id. */
export interface FormSpec {
  readonly id: string;
  submit(ctx: CommandContext, state: string, values: Record<string, string>): Promise<Response>;
}

/** Suggestions for a typed option while the user types (Discord autocomplete). */
export type Suggest = (ctx: CommandContext, query: string) => Promise<{ label: string; value: string }[]>;

/** What one command module contributes. */
export interface CommandModule {
  commands?: readonly CommandSpec[];
  actions?: readonly ActionSpec[];
  forms?: readonly FormSpec[];
  /** How an approver's click runs this group's approvable commands (the approvals port). */
  approved?: ApprovedRunners;
  /** How a write of this group whose local record failed is finished later (see `effects/reconcile.ts`). */
  effects?: EffectRunners;
}
