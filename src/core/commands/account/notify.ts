/**
 * `notify [mentions on|off] [--dm]`: how the caller is pinged when their video is ready or fails, or a post
 * they scheduled (or approved) fails (DESIGN §4). Their own preference, kept with their other ones; alone, it
 * shows the one in force. Nobody else's pings change, and subscriptions never mention anyone.
 */

import { userError } from '../../dispatch/context.js';
import { type CommandSpec, defineCommand } from '../../parse/command-spec.js';
import type { NotifyMode } from '../../ports/index.js';
import { message, type Response } from '../../text/cards.js';
import { type CardText, command, md } from '../../text/text.js';

const WHEN = md`when a video you asked for is ready or fails, and when a post you scheduled or approved fails`;

const MODE_WORDS: Readonly<Record<NotifyMode, { title: CardText; text: CardText }>> = {
  mention: {
    title: md`You are mentioned in the channel`,
    text: md`I mention you in the video card’s thread ${WHEN}.`,
  },
  dm: {
    title: md`Your pings come as direct messages`,
    text: md`I send you a direct message ${WHEN}; the card’s thread still gets the news, without a mention.`,
  },
  off: {
    title: md`Mentions are off`,
    text: md`Nobody mentions you ${WHEN}: the news still goes to the video card’s thread.`,
  },
};

const HOW = md`${command('notify', ['on'])} · ${command('notify', ['off'])} · ${command('notify', [], { dm: true })}`;

/** `mentions off` as typed in text (`setting` the word `mentions`), or `mentions:off` on Discord. */
function mentionsOf(setting: string | undefined, value: 'on' | 'off' | undefined): 'on' | 'off' | undefined {
  if (setting === undefined || setting === 'mentions') return value;
  if ((setting === 'on' || setting === 'off') && value === undefined) return setting;
  throw userError('bad-choice', { option: 'setting', value: setting, allowed: 'mentions' });
}

/** The mode `notify` sets from what was typed; undefined when nothing was (show the current one). */
function modeOf(value: 'on' | 'off' | undefined, dm: boolean | undefined): NotifyMode | undefined {
  if (value === 'off' && dm) throw userError('notify-off-and-dm');
  if (value === 'off') return 'off';
  if (dm) return 'dm';
  return value === 'on' ? 'mention' : undefined;
}

export const notifyCommand: CommandSpec = defineCommand({
  name: 'notify',
  summary: 'How you are pinged: a mention, a DM, or not',
  options: [
    // The grammar's `mentions` word: typed in text, never offered (Discord names the value's option after it).
    { name: 'setting', kind: 'string', positional: true, hidden: true, description: 'mentions' },
    { name: 'mentions', kind: 'choice', positional: true, choices: ['on', 'off'], description: 'on or off' },
    { name: 'dm', kind: 'boolean', description: 'As a DM instead' },
  ],
  examples: ['notify', 'notify off', 'notify --dm', 'notify on'],
  details: md`You are pinged ${WHEN}; nobody else is, and channel subscriptions never mention anyone. \`mentions off\`: no ping at all (the news still goes to the card’s thread). \`--dm\`: the ping comes as a direct message instead of a mention in the channel. \`mentions on\` brings back the mention in the channel.`,
  async run(ctx, args): Promise<Response> {
    const store = ctx.deps.store;
    const mode = modeOf(mentionsOf(args.setting, args.mentions), args.dm);
    if (mode === undefined) {
      const current = (await store.users.getNotify(ctx.req.user)) ?? 'mention';
      const words = MODE_WORDS[current];
      return message({ title: words.title, tone: 'info', text: words.text, context: md`Change it: ${HOW}` });
    }
    await store.users.setNotify(ctx.req.user, mode);
    const words = MODE_WORDS[mode];
    return message({ title: words.title, tone: 'success', text: words.text, context: md`Change it: ${HOW}` });
  },
});
