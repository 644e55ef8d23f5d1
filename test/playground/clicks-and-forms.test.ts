/** Clicks and forms in the playground reach the bot as the core's actions and submissions. */
import { describe, expect, it } from 'vitest';
import { videoCard } from './fake-bot.js';
import { command, eachOnAFreshPlayground, history, pg, postJson, type View } from './running-playground.js';

eachOnAFreshPlayground();

describe('clicks and forms', () => {
  async function liveCard() {
    const address = await pg.adapter.sender.post(pg.adapter.conversation(), videoCard(100), {
      dedupeId: 'outbox:1',
    });
    return { address, id: address.split(':')[3] as string };
  }

  it('runs an action with the message address and replaces the card on `update`', async () => {
    const { address, id } = await liveCard();
    expect(address).toMatch(/^playground:local:general:[a-z0-9]+-\d+$/);
    const { body } = await postJson('/playground/action', {
      user: 'bob',
      channel: 'general',
      messageId: id,
      action: 'video.render',
      value: 'vid_123',
    });
    expect(body.kind).toBe('update');
    expect(body.messages[0].id).toBe(id);
    expect(pg.bot.calls[0]).toMatchObject({
      kind: 'action',
      req: { user: 'playground:local:bob', message: address },
      input: { action: 'video.render', value: 'vid_123' },
    });
    const seen = await history('alice');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.html).toContain('Rendering, started by Bob');
  });

  it('shows several cards as one private panel; a click in it replaces only its own card', async () => {
    const { body } = await command('home');
    const panel = body.messages[1] as View;
    expect(panel.html).toContain('data-testid="card-panel"');
    expect(panel.html.match(/data-card-index=/g)).toHaveLength(3);
    expect(await history('bob')).toEqual([]);
    const clicked = await postJson('/playground/action', {
      user: 'alice',
      channel: 'general',
      messageId: panel.id,
      action: 'video.render',
      value: 'vid_123',
      cardIndex: 1,
    });
    expect(clicked.body.kind).toBe('update');
    const [, after] = await history('alice');
    expect(after?.id).toBe(panel.id);
    expect(after?.html.match(/data-card-index=/g)).toHaveLength(3);
    expect(after?.html).toContain('Rendering, started by Alice');
    expect(after?.html).toContain('You are Alice');
    expect(after?.html).toContain('Channel subscriptions');
    // A place outside the panel is refused as a bad request, and changes nothing.
    const bad = await postJson('/playground/action', {
      user: 'alice',
      channel: 'general',
      messageId: panel.id,
      action: 'video.render',
      value: 'vid_123',
      cardIndex: 'two',
    });
    expect(bad.status).toBe(400);
  });

  it('passes a select choice as value and choice', async () => {
    const { body } = await command('pick');
    const card = body.messages[1] as View;
    const clicked = await postJson('/playground/action', {
      user: 'alice',
      channel: 'general',
      messageId: card.id,
      action: 'platform.pick',
      value: 'tiktok',
      choice: 'tiktok',
    });
    expect(clicked.body.messages[0]).toMatchObject({ id: card.id });
    expect(clicked.body.messages[0].html).toContain('Platform: tiktok');
    expect(pg.bot.calls.at(-1)?.input).toEqual({
      action: 'platform.pick',
      value: 'tiktok',
      choice: 'tiktok',
    });
  });

  it("never replaces another user's private message: the update goes to the clicker alone", async () => {
    const { body } = await command('pick', 'alice');
    const aliceCard = body.messages[1] as View;
    const clicked = await postJson('/playground/action', {
      user: 'bob',
      channel: 'general',
      messageId: aliceCard.id,
      action: 'platform.pick',
      value: 'youtube',
      choice: 'youtube',
    });
    expect(clicked.body.messages[0].id).not.toBe(aliceCard.id);
    expect((await history('alice')).find((m) => m.id === aliceCard.id)?.html).toContain('Pick a platform');
    expect((await history('bob')).map((m) => m.html).join('')).toContain('Platform: youtube');
  });

  it('opens a form, shows inline errors, then posts the result', async () => {
    const opened = await command('create');
    expect(opened.body.kind).toBe('form');
    expect(opened.body.form.id).toBe('create');
    expect(opened.body.form.html).toContain('data-form-id="create" data-state="state-1"');
    const submit = (script: string) =>
      postJson('/playground/form', {
        user: 'alice',
        channel: 'general',
        formId: 'create',
        state: 'state-1',
        values: { name: 'Teaser', script, voice: 'nova' },
      });
    const invalid = await submit('short');
    expect(invalid.body).toEqual({
      ok: true,
      kind: 'form-errors',
      errors: { script: 'Write at least 10 characters.' },
    });
    const valid = await submit('A long enough script.');
    expect(valid.body.kind).toBe('message');
    expect(valid.body.messages[0].html).toContain('Teaser');
    expect(pg.bot.calls.at(-1)).toMatchObject({
      kind: 'form',
      req: { user: 'playground:local:alice' },
      input: {
        formId: 'create',
        state: 'state-1',
        values: { name: 'Teaser', script: 'A long enough script.', voice: 'nova' },
      },
    });
    expect(await history('bob')).toHaveLength(1);
  });

  it('replaces the message that opened a form when the submission answers `update`', async () => {
    const { id } = await liveCard();
    const opened = await postJson('/playground/action', {
      user: 'alice',
      channel: 'general',
      messageId: id,
      action: 'video.schedule',
      value: 'vid_123',
    });
    expect(opened.body.kind).toBe('form');
    const { body } = await postJson('/playground/form', {
      user: 'alice',
      channel: 'general',
      formId: 'schedule',
      state: 'vid_123',
      values: { when: 'tomorrow 9am' },
      messageId: id,
    });
    expect(body.messages[0].id).toBe(id);
    expect((await history('bob'))[0]?.html).toContain('Scheduled for tomorrow 9am.');
  });
});
