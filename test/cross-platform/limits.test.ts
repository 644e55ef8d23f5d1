/**
 * Limits that agree: an over-long value typed in a command or put in a form, on every adapter
 * (real Bolt, real discord.js, the playground's HTTP routes) with the simulator over HTTP, is answered with a
 * human sentence naming the field as the form does, its one limit (the API's) and how much is over, or the
 * platform's cap and the way round. Never a schema path, "Invalid request", nor anything sent to the service.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { blocksText } from '../slack/world.js';
import { type CrossWorld, crossWorld, htmlText, PLAYGROUND_CHANNEL } from './world.js';

const RAW = /Invalid request|Too big|expected string|values\.|text:|characters; the limit is/;

/** A script of exactly `length` characters. */
const scriptOf = (length: number): string =>
  `${'Octopuses taste with their arms! '.repeat(length).slice(0, length - 1)}.`;

describe.each(['spec', 'real'] as const)('over-long input on the %s profile', (profile) => {
  let w: CrossWorld;
  beforeAll(async () => {
    w = await crossWorld(profile);
  }, 60_000);
  afterAll(async () => w?.close());
  let seen = 0;
  beforeEach(() => {
    seen = w.h.proxy?.calls.length ?? 0;
  });

  /** What the video service received since the test began, reads left out: nothing. */
  const writes = () =>
    (w.h.proxy?.calls ?? [])
      .slice(seen)
      .filter((c) => c.method !== 'GET')
      .map((c) => `${c.method} ${c.path}`);

  const playgroundSaid = (body: Record<string, unknown>): string =>
    htmlText(JSON.stringify(body).replace(/\\"/g, '"').replace(/\\n/g, '\n'))
      .replace(/\s+/g, ' ')
      .replace(/\( /g, '(');

  it('a 20,000-character typed create in the playground: the composer cap, the limit and the way round', async () => {
    const sent = await w.playgroundCommand(`/reel create ${scriptOf(20_000)}`);
    expect(sent.status).toBe(200);
    const said = playgroundSaid(sent.body);
    expect(said).toContain('That script is 20,000 characters; a typed /reel create takes up to 4,000 here.');
    expect(said).toContain('It also needs to be 10,000 at most (10,000 over)');
    expect(said).toContain('open the form (/reel create alone) and paste it there or upload it as a file.');
    expect(said).not.toMatch(RAW);
    expect(writes()).toEqual([]);
  });

  it('an 8,000-character typed create in the playground: within the limit, so only the way round', async () => {
    const said = playgroundSaid((await w.playgroundCommand(`/reel create ${scriptOf(8_000)}`)).body);
    expect(said).toContain('That script is 8,000 characters; a typed /reel create takes up to 4,000 here.');
    expect(said).toContain('Open the form (/reel create alone) and paste it there or upload it as a file.');
    expect(said).not.toContain('at most');
    expect(writes()).toEqual([]);
  });

  it('a 20,000-character typed create on Slack: the field, its limit and how much is over', async () => {
    const sent = await w.slack.command(`create ${scriptOf(20_000)}`);
    const reply = await w.slack.reply(sent.responseUrl);
    const said = blocksText(reply.blocks as unknown[]);
    expect(said).toContain('Script is 20,000 characters, 10,000 over its limit of 10,000.');
    expect(said).not.toMatch(RAW);
    expect(writes()).toEqual([]);
  });

  it('a typed option over Discord’s 6,000 characters: the platform cap and the way round', async () => {
    const record = await w.discord.slash('create', { script: scriptOf(7_000) });
    const said = JSON.stringify(record.callbacks).replace(/`/g, '');
    expect(said).toContain('That script is 7,000 characters; a typed /reel create takes up to 6,000 here.');
    expect(said).not.toMatch(RAW);
    expect(writes()).toEqual([]);
  });

  it('help states each limit as the form and the errors do, from the one constant', async () => {
    const create = playgroundSaid((await w.playgroundCommand('/reel help create')).body);
    expect(create).toContain('The finished script, 10 to 10,000 characters');
    const meta = playgroundSaid((await w.playgroundCommand('/reel help meta')).body);
    expect(meta).toContain('YouTube title 100 and description 5,000, TikTok caption 2,200');
    expect(meta).toContain('X post text 280');
  });

  it('a playground form value over its field: refused on that input, saying how much is over', async () => {
    const res = await fetch(`${w.playgroundUrl}/playground/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: 'alice',
        channel: PLAYGROUND_CHANNEL,
        formId: 'video.create',
        state: '{}',
        values: { script: scriptOf(12_000), voice: '', model: 'storyboard' },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    const said = playgroundSaid(body);
    expect(said).toContain('Script is 12,000 characters, 2,000 over its limit of 10,000.');
    expect(said).not.toMatch(RAW);
    expect(writes()).toEqual([]);
  });

  it('a playground create form with neither script nor file: the field named as the form names it', async () => {
    const res = await fetch(`${w.playgroundUrl}/playground/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: 'alice',
        channel: PLAYGROUND_CHANNEL,
        formId: 'video.create',
        state: '{}',
        values: { script: '  ', script_file: '', model: 'storyboard' },
      }),
    });
    const said = playgroundSaid((await res.json()) as Record<string, unknown>);
    expect(said).toContain('"script":"Script is required: type it or upload it as a file."');
    expect(writes()).toEqual([]);
  });

  it('a playground form name over 120 characters: refused on the name input', async () => {
    const res = await fetch(`${w.playgroundUrl}/playground/form`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        user: 'alice',
        channel: PLAYGROUND_CHANNEL,
        formId: 'series.create',
        state: '',
        values: { name: 'n'.repeat(150), source: 'ai_story' },
      }),
    });
    const said = playgroundSaid((await res.json()) as Record<string, unknown>);
    expect(said).toContain('Series name is 150 characters, 30 over its limit of 120.');
    expect(said).not.toMatch(RAW);
    expect(writes()).toEqual([]);
  });
});
