/**
 * Commands about one video or one series named by the rest of the line (`show last`, `series pause "Night
 * Terrors"`): the role, when the command needs one, is checked first (a member without it is refused before
 * anything is looked up), then the reference is resolved and `run` acts on it.
 */
import { checkRole, type Role } from '../approvals/roles.js';
import type { CommandContext } from '../dispatch/context.js';
import type { Response } from '../text/cards.js';
import { type Ref, resolveSeries, resolveVideo } from '../video-api/references.js';
import { type CommandSpec, defineCommand } from './command-spec.js';
import { SERIES_OPTION, VIDEO_REST_OPTION } from './shared-options.js';

/** Which references a command can be about: the option that names one and how it is resolved. */
const REFERENCES = {
  video: { option: VIDEO_REST_OPTION, resolve: resolveVideo },
  series: { option: SERIES_OPTION, resolve: resolveSeries },
} as const;

export type ReferenceCommandSpec = Omit<CommandSpec, 'options' | 'run'> & {
  /** Checked before the reference is resolved. */
  role?: Role;
  run(ctx: CommandContext, ref: Ref): Promise<Response> | Response;
};

/** A command whose only option names one `kind` of thing; `run` gets it resolved. */
export function referenceCommand(
  kind: keyof typeof REFERENCES,
  { role, run, ...spec }: ReferenceCommandSpec,
): CommandSpec {
  const { option, resolve } = REFERENCES[kind];
  return defineCommand({
    ...spec,
    options: [option],
    async run(ctx, args) {
      if (role) await checkRole(ctx, role);
      return run(ctx, await resolve(ctx, args[option.name]));
    },
  });
}
