/**
 * On Discord the bot names commands the way members type them: the core's `/reel link` is `/reel account link`
 * there, in every answer (first responses, deferred edits, public follow-ups), in help, in usage lines, and in
 * the cards and notices the outbox delivers later. End to end: the real discord.js client (or the signed HTTP
 * endpoint) against the local fake, the real core and simulator behind it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CommandRoutes } from '../../adapters/discord/commands.js';
import { notifyUser } from '../../src/core/live/live-card.js';
import { command, md } from '../../src/core/text/text.js';
import type { FakeInteraction, FakeMessage } from './fake-discord.js';
import { contextOf, textOf, titleOf } from './read-message.js';
import { discordWorld, IDS, type Json, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

const HOUR = 3_600_000;

/** `/reel <core name>` for every command Discord files under another path: never what a member should read. */
function coreOnlyNames(world: World): RegExp {
  const routes = new CommandRoutes(world.h.bot.commands);
  const moved = routes
    .all()
    .filter((r) => routes.slashOf(r.command) !== `/reel ${r.command}`)
    .map((r) => r.command);
  expect(moved).toEqual(expect.arrayContaining(['link', 'settings', 'voices', 'tz']));
  return new RegExp(`/reel (${moved.join('|')})(?![\\w-])`);
}

/** Every text of the answer as the member sees it (all callbacks, the original message after edits). */
function seen(world: World, r: FakeInteraction): string {
  const original = r.original ? world.fake.messages.get(r.original) : undefined;
  return [JSON.stringify(r.callbacks), original ? JSON.stringify(original) : ''].join('\n');
}

describe('answers to slash commands', () => {
  it('tell an unlinked member to run `/reel account link`, never a bare `/reel link`', async () => {
    w = await discordWorld({ linked: ['alice'] });
    const core = coreOnlyNames(w);
    const r = await w.slash('credits', {}, 'bob');
    const message = w.original(r);
    expect(message.flags & 64).toBe(64);
    expect(textOfMessage(message)).toMatch(/^Not done\n.*Run `\/reel account link`/);
    expect(seen(w, r)).not.toMatch(core);
  });

  it('list grouped commands in help by their Discord paths, and help reads those paths back', async () => {
    w = await discordWorld({ linked: ['alice'] });
    const core = coreOnlyNames(w);

    const overview = await w.slash('help', {}, 'bob');
    const text = textOfMessage(w.original(overview));
    for (const line of [
      '**Start here:** `/reel account link`',
      '• `account link` —',
      '• `catalog voices` —',
      '• `channel settings` —',
      '• `account tz` —',
      '• `channel audit` —',
      // The core's own groups and top-level commands keep their names.
      '• `series create` —',
      '• `credits` —',
    ]) {
      expect(text).toContain(line);
    }
    expect(text).not.toMatch(/`(link|voices|settings|tz|audit)`/);
    expect(seen(w, overview)).not.toMatch(core);

    // The path help showed works as help's argument, as does the core's name.
    for (const command of ['account link', '/reel account link', 'link']) {
      const one = await w.slash('help', { command });
      const card = w.original(one);
      expect(titleOf(card)).toBe('/reel account link');
      expect(textOfMessage(card)).toContain('**Usage**: `/reel account link`');
      expect(textOfMessage(card)).toContain('`account unlink` removes it');
      expect(seen(w, one)).not.toMatch(core);
    }
  });

  it('show usage and examples of a grouped command with its Discord path', async () => {
    w = await discordWorld({ linked: ['alice'] });
    const r = await w.slash('account tz', { zone: 'Mars/Olympus' });
    const text = textOfMessage(w.original(r));
    expect(text).toContain('**Usage**: `/reel account tz [zone:<zone>]`');
    expect(text).toContain('**Example**: `/reel account tz zone:Europe/Paris`');
    expect(text).not.toContain('--');
    expect(seen(w, r)).not.toMatch(coreOnlyNames(w));
  });

  it('write usage, examples and usage errors in Discord option syntax, never text flags', async () => {
    w = await discordWorld({ linked: ['alice'] });
    const help = textOfMessage(w.original(await w.slash('help', { command: 'create' })));
    expect(help).toContain('**Usage**: `/reel create [script:<script>] [voice:<voice>]');
    expect(help).toMatch(/`\/reel create script:[^`]+ voice:[^`]+`/);
    expect(help).not.toMatch(/--voice|<script…>/);

    // A usage error: a value the command refuses, answered with its usage and an example.
    const bad = textOfMessage(w.original(await w.slash('credits', { page: 0 })));
    expect(bad).toContain('**Usage**: `/reel credits [page:<page>]`');
    expect(bad).not.toContain('--page');

    // A card naming a regrouped command with arguments.
    const none = textOfMessage(w.original(await w.slash('channel subscribe', {})));
    expect(none).toContain('`/reel channel subscribe what:calendar`');
    expect(none).toContain('`/reel channel subscribe what:series series:<name>`');
  });

  it('name commands in deferred answers: the edited placeholder and a public follow-up (HTTP mode)', async () => {
    w = await discordWorld({ mode: 'http', deferAfterMs: 0, linked: ['alice'] });
    const core = coreOnlyNames(w);
    const r = await w.slash('credits', {}, 'bob');
    await w.fake.waitFor(() => r.events.includes('edit'));
    expect(r.callbacks[0]).toEqual({ type: 5, data: { flags: 64 } });
    expect(textOfMessage(w.original(r))).toContain('Run `/reel account link` to connect your team');

    const subscribe = await w.slash('channel subscribe', { what: 'calendar' });
    await w.fake.waitFor(() => subscribe.events.includes('delete'));
    const followUp = w.fake.messages.get(subscribe.followups[0] as string) as FakeMessage;
    expect(followUp.flags & 64).toBe(0);
    expect(contextOf(followUp)).toContain('`/reel channel unsubscribe what:calendar` to stop');
    expect(JSON.stringify(followUp)).not.toMatch(core);
  });
});

describe('cards and notices the outbox delivers', () => {
  it('name commands in a channel card posted by a watcher long after the command', async () => {
    w = await discordWorld({ linked: ['alice'] });
    const core = coreOnlyNames(w);
    await w.slash('channel subscribe', { what: 'videos' });
    const unlink = await w.slash('account unlink');
    expect(textOfMessage(w.original(unlink))).toContain('Run `/reel account link` to link a key again.');

    // The feed watcher finds the key gone and says so in the channel, through the outbox and the bot token.
    const stopped = () => w.fake.channelMessages().find((m) => titleOf(m) === 'Subscription stopped');
    await w.h.until(() => stopped() !== undefined, { maxMs: 3 * HOUR });
    const card = stopped() as FakeMessage;
    expect(card.interaction).toBeUndefined();
    expect(textOfMessage(card)).toContain(
      'Run `/reel channel subscribe what:videos` to follow it with yours.',
    );
    for (const message of w.fake.channelMessages()) expect(JSON.stringify(message)).not.toMatch(core);
  });

  it('name commands in a private notice sent by direct message', async () => {
    w = await discordWorld({ linked: ['alice'] });
    await notifyUser(w.h.store, {
      user: w.address('bob'),
      conversation: w.conversation,
      card: {
        title: md`Approval needs an approver`,
        tone: 'warning',
        text: md`Ask an admin to run ${command('settings', ['approvers', '@name'])}, or allow ${command('settings', ['self-approval', 'on'])}.`,
        context: md`Your zone: UTC · ${command('tz')} changes it`,
      },
      dedupeKey: 'test:notice:1',
    });
    await w.h.flush();
    const posts = w.fake.requests.filter(
      (r) => r.method === 'POST' && r.path.endsWith('/messages') && !r.path.includes(IDS.channel),
    );
    expect(posts).toHaveLength(1);
    const body = posts[0]?.body as Json;
    expect(textOf(body)).toContain(
      'Ask an admin to run `/reel channel settings key:approvers value:@name`, or allow `/reel channel settings key:self-approval value:on`.',
    );
    expect(contextOf(body)).toBe('Your zone: UTC · `/reel account tz` changes it');
  });
});
