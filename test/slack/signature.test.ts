/**
 * Bolt's own request verification on the shared server: a valid signed slash command is acknowledged and
 * answered; a forged signature, a stale timestamp or a missing header get 401 and reach nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksText, fixture, type SlackWorld, sign, slackWorld } from './world.js';

let w: SlackWorld;
beforeAll(async () => {
  w = await slackWorld();
});
afterAll(() => w.close());

/** A valid command sent now has been answered: a refused request sent before it had every chance to run. */
async function answered(): Promise<void> {
  await w.reply((await w.command('help')).responseUrl);
}

describe('Slack request verification (HTTP mode)', () => {
  it('acknowledges a signed /reel help at once and answers through response_url', async () => {
    const sent = await w.command('help');
    expect(sent.status).toBe(200);
    const reply = await w.reply(sent.responseUrl);
    expect(reply.response_type).toBe('ephemeral');
    expect(blocksText(reply.blocks as unknown[])).toContain('/reel');
  });

  it('refuses a forged signature with 401 and runs nothing', async () => {
    const before = w.fake.calls.length;
    const sent = await w.command('whoami', { secret: 'not-the-signing-secret' });
    expect(sent.status).toBe(401);
    await answered();
    expect(w.fake.responsesTo(sent.responseUrl)).toEqual([]);
    expect(w.fake.calls.length).toBe(before);
  });

  it('refuses a stale timestamp (replay) with 401, even with a valid signature for it', async () => {
    const sent = await w.command('whoami', { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(sent.status).toBe(401);
    await answered();
    expect(w.fake.responsesTo(sent.responseUrl)).toEqual([]);
  });

  it('refuses a body altered after signing', async () => {
    const payload = fixture<Record<string, string>>('slash-command.json');
    const body = new URLSearchParams(payload).toString();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = sign(body, timestamp);
    const altered = body.replace('text=help', 'text=unlink');
    const res = await w.send(altered, 'application/x-www-form-urlencoded', { timestamp, signature });
    expect(res.status).toBe(401);
  });

  it('answers Slack’s url_verification challenge when signed', async () => {
    const body = JSON.stringify({
      token: 'x',
      challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
      type: 'url_verification',
    });
    const res = await w.send(body, 'application/json');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({
      challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P',
    });
  });
});
