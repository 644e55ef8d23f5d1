/** `series resume <s>`: automatic episodes start again on the schedule. */
import { checkRole } from '../../approvals/roles.js';
import { defineCommand } from '../../command-spec.js';
import { resolveSeries } from '../../references.js';
import { setPaused } from './set-paused.js';

export const resumeCommand = defineCommand({
  name: 'series resume',
  summary: 'Resume a paused series: episodes are generated on schedule again',
  options: [
    {
      name: 'series',
      kind: 'series',
      positional: true,
      required: true,
      description: 'Series name, id or `last`',
    },
  ],
  examples: ['series resume "Night Terrors"'],
  async run(ctx, args) {
    // Refused by role before the series is even looked up (setPaused checks again for the buttons).
    checkRole(ctx, 'spend');
    return setPaused(ctx, await resolveSeries(ctx, args.series), false);
  },
});
