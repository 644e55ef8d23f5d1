/** Suggestions for the option being typed; nothing when the core takes too long (Discord's 3 s). */
import { InteractionResponseType } from 'discord.js';
import { within } from '../../../src/core/index.js';
import type { Replier } from '../interactions.js';
import { clip, DISCORD } from '../limits.js';
import { requestInfoOf } from '../request-info.js';
import type { InboundOf, InteractionContext } from './context.js';

export async function answerAutocomplete(
  ctx: InteractionContext,
  i: InboundOf<'autocomplete'>,
  reply: Replier,
) {
  const route = i.path.sub ? ctx.routes.find(i.path.group, i.path.sub) : undefined;
  const option = route?.options.get(i.focused.name);
  let choices: { name: string; value: string }[] = [];
  if (route && option) {
    const suggestions = await within(
      ctx.clock,
      ctx.autocompleteTimeoutMs,
      ctx.bot
        .autocomplete(requestInfoOf(i), { command: route.command, option, query: i.focused.value })
        .catch(() => []),
    );
    choices = (suggestions ?? [])
      .filter((s) => s.value.length <= DISCORD.choiceValue && s.value !== '')
      .slice(0, DISCORD.autocompleteChoices)
      .map((s) => ({ name: clip(s.label, DISCORD.choiceName) || s.value, value: s.value }));
  }
  await reply.callback({
    type: InteractionResponseType.ApplicationCommandAutocompleteResult,
    data: { choices },
  });
}
