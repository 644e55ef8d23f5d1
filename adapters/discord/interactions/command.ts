/**
 * `/reel …`: the command and its options, renamed from Discord's option names to the core's; the `more`
 * option's `--flags` (the command's advanced options) read with the core's own text parser.
 */
import type { RawArgs, Response } from '../../../src/core/index.js';
import { errorCard, say } from '../../../src/core/index.js';
import { discordChannelAccess } from '../channel-access.js';
import { COMMAND_ARGUMENTS } from '../command-names.js';
import { type CommandRoute, flagsOf, MORE_OPTION, ROOT_COMMAND } from '../commands.js';
import { discordFileLinks, messageScript, testOrigin, withFileLink } from '../file-input.js';
import type { Replier } from '../interactions.js';
import { DISCORD } from '../limits.js';
import { requestInfoOf } from '../request-info.js';
import type { InboundOf, InteractionContext } from './context.js';
import { respond } from './respond.js';

export async function answerCommand(ctx: InteractionContext, i: InboundOf<'command'>, reply: Replier) {
  const { bot, routes } = ctx;
  if (i.target) {
    const target = i.target;
    return respond(
      ctx,
      { interaction: i, reply, answering: { source: 'reply', canShowModal: true } },
      async () => {
        const apiOrigin = testOrigin(ctx.rest.options.api);
        return bot.handleAction(requestOf(ctx, i, apiOrigin), await messageScript(target, apiOrigin));
      },
    );
  }
  const route =
    i.path.command === ROOT_COMMAND && i.path.sub ? routes.find(i.path.group, i.path.sub) : undefined;
  const name = route?.command ?? [i.path.group, i.path.sub].filter(Boolean).join(' ');
  // A command that cannot answer with a form is acknowledged at once ("thinking…"), then answered: the
  // acknowledgement never waits behind the video API or other members' commands (docs/performance.md,
  // ack latency). One that may answer with a form waits for it, since only a first response can be a modal.
  // Only the command's name is read before the acknowledgement; its request and arguments after.
  await respond(
    ctx,
    {
      interaction: i,
      reply,
      answering: { source: 'reply', canShowModal: true },
      ackFirst: !bot.mayAnswerWithForm(name),
    },
    () => runCommand(ctx, i, { route, name }),
  );
}

/** The core's request for an interaction: who, where, and the readers for its files and channels. */
function requestOf(ctx: InteractionContext, i: InboundOf<'command'>, apiOrigin: string | undefined) {
  // Files: read from Discord's CDN by link (`from-file:`, `file:`), and the message command (file-input.ts).
  return {
    ...requestInfoOf(i),
    files: discordFileLinks(apiOrigin),
    ...(i.guildId
      ? { channelAccess: discordChannelAccess(ctx.rest, { guildId: i.guildId, botId: i.applicationId }) }
      : {}),
  };
}

/** `/reel <command>` with its options read into the core's arguments, run. */
async function runCommand(
  ctx: InteractionContext,
  i: InboundOf<'command'>,
  { route, name }: { route: CommandRoute | undefined; name: string },
): Promise<Response> {
  const { bot, render } = ctx;
  i.options = withFileLink(i.options, i.attachments);
  const req = requestOf(ctx, i, testOrigin(ctx.rest.options.api));
  const spec = route && bot.commands.find((c) => c.name === route.command);
  const more = route && route.advanced.size > 0 ? i.options[MORE_OPTION] : undefined;
  const flags = spec && typeof more === 'string' ? flagsOf(spec, more) : undefined;
  // Typed options win over the same setting given again as a flag.
  const raw: RawArgs = flags?.ok ? { ...flags.value } : {};
  for (const [option, value] of Object.entries(i.options)) {
    if (more !== undefined && option === MORE_OPTION) continue;
    raw[route?.options.get(option) ?? option] = value;
  }
  // `/reel help command:account link`: the name help showed on Discord, turned back into the core's.
  const naming = route && COMMAND_ARGUMENTS[route.command];
  const typed = naming ? raw[naming] : undefined;
  if (naming && typeof typed === 'string') raw[naming] = render.names.coreName(typed);
  ctx.log.debug({ command: name, user: req.user }, 'discord command');
  // Discord takes at most 6,000 characters in a string option; a longer one (an older registration, a
  // client that ignores max_length) is answered with the field's limit and the way round, never run.
  const over = Object.entries(raw).find(
    ([, v]) => typeof v === 'string' && [...v].length > DISCORD.stringOptionMaxLength,
  );
  if (over)
    return await bot.handleTooLong(req, {
      command: name,
      option: over[0],
      length: [...String(over[1])].length,
      cap: DISCORD.stringOptionMaxLength,
    });
  if (flags && !flags.ok) return errorCard(say(flags.error.code, flags.error.params), spec);
  return await bot.handleCommand(req, name, raw);
}
