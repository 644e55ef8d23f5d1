/**
 * `tz [zone]`: the caller's own time zone, for platforms that do not report one (Discord) or to override
 * it. Dates in `calendar`, `credits`, `schedule` echoes and cards use it. Alone: the zone in force and why.
 */

import { userError } from '../../dispatch/context.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import { normalizeTimeZone } from '../../settings/time-zone.js';
import { message, type Response } from '../../text/cards.js';
import { command, hole, literal, md } from '../../text/text.js';
import { localTime } from '../../time/format.js';

export const tzCommand: CommandSpec = defineCommand({
  name: 'tz',
  summary: 'Set your time zone (IANA name), or show the one in use',
  options: [
    { name: 'zone', kind: 'string', positional: true, description: 'e.g. Europe/Paris', maxLength: 64 },
  ],
  examples: ['tz Europe/Paris', 'tz America/New_York', 'tz'],
  details: md`Times you type (\`schedule … tomorrow 9am\`) are read in this zone and times are shown in it. Without one, your chat profile’s zone is used where the platform gives it, then the channel’s, then UTC.`,
  async run(ctx, args): Promise<Response> {
    const now = ctx.now();
    if (args.zone === undefined) {
      const zone = await ctx.timeZone();
      const own = await ctx.deps.store.users.getTimeZone(ctx.req.user);
      const channel = (await ctx.settings()).timeZone;
      const source = own
        ? md`you set it with ${command('tz')}`
        : ctx.req.platformTimeZone
          ? md`from your chat profile`
          : channel
            ? md`the channel’s default (${command('settings', ['timezone'])})`
            : md`the default: nothing else is set`;
      return message({
        title: md`Your time zone: ${literal(zone)}`,
        tone: 'info',
        text: md`It is ${localTime(now, zone)} there (${source}).`,
        context: md`Change it with ${command('tz', [hole('zone')])}, e.g. ${command('tz', ['Europe/Paris'])}.`,
      });
    }
    const zone = normalizeTimeZone(args.zone);
    if (!zone) throw userError('bad-timezone', { value: args.zone });
    await ctx.deps.store.users.setTimeZone(ctx.req.user, zone);
    return message({
      title: md`Time zone set: ${literal(zone)}`,
      tone: 'success',
      text: md`It is ${localTime(now, zone)} there. Times you type and times I show now use ${literal(zone)}.`,
    });
  },
});
