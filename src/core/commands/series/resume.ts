import { referenceCommand } from '../../parse/reference-command.js';
import { md } from '../../text/text.js';
import { confirmResume } from './set-paused.js';

export const resumeCommand = referenceCommand('series', {
  name: 'series resume',
  summary: 'Resume a paused series: episodes are generated on schedule again',
  examples: ['series resume "Night Terrors"'],
  details: md`Shows the series model's credits per episode and your balance first; episodes start again once you confirm.`,
  // Refused by role before the series is even looked up (the cost card checks again for the buttons).
  role: 'spend',
  run: confirmResume,
});
