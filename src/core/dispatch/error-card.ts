import type { CommandSpec } from '../parse/command-spec.js';
import type { Card, Response } from '../text/cards.js';
import { example, usage } from '../text/command-usage.js';
import { type CardText, md } from '../text/text.js';

/** Every error reply made here, so a caller running a handler can tell a failure from an answer. */
const errorReplies = new WeakSet<Response>();

/** Whether `response` is an error reply (`errorCard`): a one-shot card then stays usable (one-shot.ts). */
export const isErrorReply = (response: Response): boolean => errorReplies.has(response);

/** The one shape of an error reply: visible to the caller only, with usage when a command is known. */
export function errorCard(text: CardText, spec?: CommandSpec): Response {
  const card: Card = { title: md`Not done`, tone: 'danger', text };
  if (spec) {
    card.fields = [{ label: md`Usage`, value: usage(spec) }];
    const first = spec.examples[0];
    if (first) card.fields.push({ label: md`Example`, value: example(spec, first) });
  }
  const reply: Response = { kind: 'message', visibility: 'ephemeral', card };
  errorReplies.add(reply);
  return reply;
}
