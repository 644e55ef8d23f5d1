/** `/reel …`: the command and its options, renamed from Discord's option names to the core's. */
import { COMMAND_ARGUMENTS } from '../command-names.js';
import { ROOT_COMMAND } from '../commands.js';
import type { Replier } from '../interactions.js';
import { requestInfoOf } from '../request-info.js';
import type { InboundOf, InteractionContext } from './context.js';
import { respond } from './respond.js';

export async function answerCommand(ctx: InteractionContext, i: InboundOf<'command'>, reply: Replier) {
  const { bot, routes, render } = ctx;
  const req = requestInfoOf(i);
  const route =
    i.path.command === ROOT_COMMAND && i.path.sub ? routes.find(i.path.group, i.path.sub) : undefined;
  const name = route?.command ?? [i.path.group, i.path.sub].filter(Boolean).join(' ');
  const raw: Record<string, string | number | boolean> = {};
  for (const [option, value] of Object.entries(i.options)) raw[route?.options.get(option) ?? option] = value;
  // `/reel help command:account link`: the name help showed on Discord, turned back into the core's.
  const naming = route && COMMAND_ARGUMENTS[route.command];
  const typed = naming ? raw[naming] : undefined;
  if (naming && typeof typed === 'string') raw[naming] = render.names.coreName(typed);
  ctx.log.debug({ command: name, user: req.user }, 'discord command');
  // A command that cannot answer with a form is acknowledged at once ("thinking…"), then answered: the
  // acknowledgement never waits behind the video API or other members' commands (docs/performance.md,
  // ack latency). One that may answer with a form waits for it, since only a first response can be a modal.
  await respond(
    ctx,
    {
      interaction: i,
      reply,
      answering: { source: 'reply', canShowModal: true },
      ackFirst: !bot.mayAnswerWithForm(name),
    },
    () => bot.handleCommand(req, name, raw),
  );
}
