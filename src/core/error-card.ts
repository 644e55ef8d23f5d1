import type { Card, Response } from './cards.js';
import type { CommandSpec } from './command-spec.js';
import { example, usage } from './command-usage.js';

/** The one shape of an error reply: visible to the caller only, with usage when a command is known. */
export function errorCard(text: string, spec?: CommandSpec): Response {
  const card: Card = { title: 'Not done', tone: 'danger', text };
  if (spec) {
    card.fields = [{ label: 'Usage', value: usage(spec) }];
    const first = spec.examples[0];
    if (first) card.fields.push({ label: 'Example', value: example(spec, first) });
  }
  return { kind: 'message', visibility: 'ephemeral', card };
}
