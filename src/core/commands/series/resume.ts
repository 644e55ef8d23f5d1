/** `series resume <s>`: the cost per episode and the balance first; Confirm restarts the schedule. */
import { checkRole } from '../../approvals/roles.js';
import { defineCommand } from '../../parse/command-spec.js';
import { SERIES_OPTION } from '../../parse/shared-options.js';
import { md } from '../../text/text.js';
import { resolveSeries } from '../../video-api/references.js';
import { confirmResume } from './set-paused.js';

export const resumeCommand = defineCommand({
  name: 'series resume',
  summary: 'Resume a paused series: episodes are generated on schedule again',
  options: [SERIES_OPTION],
  examples: ['series resume "Night Terrors"'],
  details: md`Shows the series model's credits per episode and your balance first; episodes start again once you confirm.`,
  async run(ctx, args) {
    // Refused by role before the series is even looked up (the cost card checks again for the buttons).
    await checkRole(ctx, 'spend');
    return confirmResume(ctx, await resolveSeries(ctx, args.series));
  },
});
