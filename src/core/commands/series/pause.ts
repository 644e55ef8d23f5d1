import { referenceCommand } from '../../parse/reference-command.js';
import { setPaused } from './set-paused.js';

export const pauseCommand = referenceCommand('series', {
  name: 'series pause',
  summary: 'Pause a series: no new episodes are generated or charged',
  examples: ['series pause "Night Terrors"'],
  run: (ctx, ref) => setPaused(ctx, ref, { paused: true }),
});
