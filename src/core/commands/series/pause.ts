/** `series pause <s>`: stops automatic episodes (and their charges) until resumed. */
import { defineCommand } from '../../parse/command-spec.js';
import { SERIES_OPTION } from '../../parse/shared-options.js';
import { resolveSeries } from '../../video-api/references.js';
import { setPaused } from './set-paused.js';

export const pauseCommand = defineCommand({
  name: 'series pause',
  summary: 'Pause a series: no new episodes are generated or charged',
  options: [SERIES_OPTION],
  examples: ['series pause "Night Terrors"'],
  async run(ctx, args) {
    return setPaused(ctx, await resolveSeries(ctx, args.series), { paused: true });
  },
});
