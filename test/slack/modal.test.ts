/**
 * Forms as Slack modals: opened with `views.open` straight from the slash command's trigger id, inline
 * errors in the view_submission acknowledgement (`response_action: errors`, the modal stays open), the
 * answer after a good submission through the command's response_url, and the fallback when the trigger has
 * expired: an ephemeral "Open form" button whose click opens the modal with its own fresh trigger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEW_ACK_BUDGET_MS } from '../../adapters/slack/listeners.js';
import { DEMO_KEY } from '../support/harness.js';
import { latch } from '../support/latch.js';
import { address, BOB, blocksText, elements, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
beforeAll(async () => {
  w = await slackWorld();
});
afterAll(() => w.close());

describe('forms as modals', () => {
  it('opens the link form from the trigger, shows inline errors, then links', async () => {
    const sent = await w.command('link', { user: BOB });
    const open = await w.fake.waitFor(
      () => w.fake.callsOf('views.open').find((c) => c.args.trigger_id === sent.triggerId),
      'views.open',
    );
    const view = open.args.view as Record<string, unknown>;
    expect(view).toMatchObject({
      type: 'modal',
      callback_id: 'account.link',
      title: { type: 'plain_text', text: 'Link your API key' },
      submit: { type: 'plain_text', text: 'Link' },
      close: { type: 'plain_text', text: 'Cancel' },
    });
    expect(JSON.parse(view.private_metadata as string)).toEqual({
      s: '',
      c: 'C0VIDEOS',
      r: sent.responseUrl,
    });
    const input = (view.blocks as Record<string, unknown>[]).find((b) => b.type === 'input');
    expect(input).toMatchObject({
      block_id: 'key',
      optional: false,
      element: { type: 'plain_text_input', action_id: 'key', multiline: false },
    });
    // Nothing was said in the channel: the form is the answer.
    expect(w.fake.responsesTo(sent.responseUrl)).toEqual([]);

    const malformed = await w.submit({ key: 'two words' }, { user: BOB });
    expect(malformed.status).toBe(200);
    expect(malformed.ack).toEqual({
      response_action: 'errors',
      errors: { key: expect.stringContaining('one word with no spaces') },
    });
    const refused = await w.submit({ key: 'fl_live_this_key_does_not_exist_0000000000' }, { user: BOB });
    expect(refused.ack).toEqual({
      response_action: 'errors',
      errors: { key: expect.stringContaining('not accepted') },
    });
    expect(await w.h.store.keys.get(address.user(BOB))).toBeUndefined();

    const linked = await w.submit({ key: DEMO_KEY }, { user: BOB });
    expect(linked.ack).toBeUndefined(); // an empty 200 closes the modal
    const reply = await w.reply(sent.responseUrl);
    expect(reply.response_type).toBe('ephemeral');
    expect(blocksText(reply.blocks as unknown[])).toContain('Linked to');
    expect(JSON.stringify(reply)).not.toContain(DEMO_KEY);
    expect((await w.h.store.keys.get(address.user(BOB)))?.apiKey).toBe(DEMO_KEY);
  });

  it('offers an "Open form" button when the trigger expired, and its click opens the modal', async () => {
    const expired = '7216999999999.7141926741253.expiredexpiredexpiredexpired00';
    w.fake.expiredTriggers.add(expired);
    const sent = await w.command('schedule', { triggerId: expired });
    const offer = await w.reply(sent.responseUrl);
    expect(offer.response_type).toBe('ephemeral');
    expect(blocksText(offer.blocks as unknown[])).toContain('takes a few details in a form');
    const button = elements(offer.blocks as unknown[])[0] as Record<string, unknown>;
    expect(button).toMatchObject({ type: 'button', text: { text: 'Open form' }, style: 'primary' });
    expect(String(button.action_id)).toMatch(/^-open-form\|/);

    const opens = w.fake.callsOf('views.open').length;
    const click = await w.click(
      { blocks: offer.blocks as unknown[], ts: '1700000100.000100', ephemeral: true },
      '-open-form',
    );
    const open = await w.fake.waitFor(
      () =>
        w.fake
          .callsOf('views.open')
          .slice(opens)
          .find((c) => c.args.trigger_id === click.triggerId),
      'views.open from the button',
    );
    expect((open.args.view as { callback_id: string }).callback_id).toBe('schedule.form');
  });

  it('answers a submission whose form state no longer parses by just closing the modal', async () => {
    const view = { type: 'modal', callback_id: 'schedule.form', private_metadata: 'garbage', blocks: [] };
    const res = await w.submit({}, { view });
    expect(res.status).toBe(200);
    expect(res.ack).toBeUndefined();
  });
});

describe('a slow core behind a modal', () => {
  it('closes the modal within Slack’s 3 s and answers when the core is done', async () => {
    const reached = latch();
    const core = latch();
    const slow = await slackWorld({
      bot: (bot) => ({
        ...bot,
        handleForm: async (req, submission) => {
          reached.open();
          await core.promise;
          return bot.handleForm(req, submission);
        },
      }),
    });
    try {
      const sent = await slow.command('link', { user: BOB });
      await slow.fake.waitFor(() => slow.modals()[0], 'the modal');
      const submitting = slow.submit({ key: 'two words' }, { user: BOB });
      await reached.promise; // the budget runs from receipt; the core holds on
      slow.h.clock.advance(VIEW_ACK_BUDGET_MS);
      const submitted = await submitting; // acknowledged while the core is still working
      core.open();
      expect(submitted.ack).toBeUndefined(); // closed: too late for inline errors
      // The errors still reach the member, privately.
      const reply = await slow.reply(sent.responseUrl);
      expect(reply.response_type).toBe('ephemeral');
      expect(blocksText(reply.blocks as unknown[])).toContain('The form was not saved');
      expect(blocksText(reply.blocks as unknown[])).toContain('one word with no spaces');
    } finally {
      await slow.close();
    }
  });

  it('counts the budget from receipt: a slow users.info (cold cache) still closes the modal within 3 s', async () => {
    const sent = await w.command('link', { user: BOB });
    await w.fake.waitFor(
      () => w.fake.callsOf('views.open').find((c) => c.args.trigger_id === sent.triggerId),
      'views.open',
    );
    // Someone the adapter has never looked up submits, and Slack takes longer than Slack's whole 3 s to say who.
    const usersInfo = w.fake.hold('users.info');
    try {
      const submitting = w.submit({ key: 'two words' }, { user: 'U0CAROL' });
      await usersInfo.reached; // the budget is armed at receipt, before the lookup
      w.h.clock.advance(VIEW_ACK_BUDGET_MS);
      const submitted = await submitting; // while users.info still has not answered
      usersInfo.release();
      expect(submitted.status).toBe(200);
      expect(submitted.ack).toBeUndefined(); // closed in time; the answer follows privately
      const reply = await w.reply(sent.responseUrl);
      expect(reply.response_type).toBe('ephemeral');
      expect(blocksText(reply.blocks as unknown[])).toContain('one word with no spaces');
    } finally {
      usersInfo.release();
    }
  });
});
