/**
 * `/reel create` on Slack with the short form, through the REAL Bolt app against the fake Slack, the
 * real core and the simulator, on both profiles: the form asks only the common inputs (no name, master style
 * or negative prompt); its submission answers the private cost card; the card's "More options" opens a small
 * modal, whose submission replaces that same private card (through the click's response_url) with the
 * options shown and the cost unchanged; Create then sends them in the one POST /videos.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blocksText, elements, type SlackWorld, slackWorld } from './world.js';

type Json = Record<string, unknown>;
let w: SlackWorld;
afterEach(() => w.close());

const SCRIPT = 'Lighthouses were once kept by families who lived at the top of the tower all year long.';
const posts = () => w.h.sim.sim.received({ method: 'POST', path: '/videos' });
const blockIds = (view: Json) =>
  (view.blocks as { type: string; block_id?: string }[])
    .filter((b) => b.type === 'input')
    .map((b) => b.block_id);
const buttonLabels = (message: Json) =>
  elements(message.blocks as unknown[]).map((e) => (e.text as { text?: string } | undefined)?.text);

describe.each(['spec', 'real'] as const)('on the %s profile', (profile) => {
  beforeEach(async () => {
    w = await slackWorld({ harness: { simulator: { profile } } });
  });

  it('the short form, then More options on the private cost card, then Create with the options', async () => {
    const sent = await w.command('create');
    const form = await w.fake.waitFor(() => w.modals()[0], 'the create form');
    expect(form.callback_id).toBe('video.create');
    const ids = blockIds(form);
    expect(ids).not.toContain('name');
    expect(ids).not.toContain('master-style');
    expect(ids).not.toContain('negative');
    expect(ids).toEqual(expect.arrayContaining(['script', 'script_file', 'voice', 'model']));

    const voiceBlock = (
      form.blocks as { block_id?: string; element?: { options?: { value: string }[] } }[]
    ).find((b) => b.block_id === 'voice');
    const voice = voiceBlock?.element?.options?.[0]?.value as string;
    const submitted = await w.submit({ script: SCRIPT, voice, model: 'storyboard' });
    expect(submitted.ack).toBeUndefined();
    const confirm = await w.reply(sent.responseUrl);
    expect(confirm.response_type).toBe('ephemeral');
    expect(buttonLabels(confirm)).toEqual(['Create (20 credits)', 'More options', 'Cancel']);

    // The private card's More options: a small modal from the click's trigger.
    const ephemeralCard = { blocks: confirm.blocks as unknown[], ts: '1700000001.000100', ephemeral: true };
    const more = await w.click(ephemeralCard, 'video.create.options');
    const options = await w.fake.waitFor(
      () => w.fake.callsOf('views.open').find((c) => c.args.trigger_id === more.triggerId)?.args.view as Json,
      'the More options modal',
    );
    expect(options.callback_id).toBe('video.create.options');
    expect(blockIds(options)[0]).toBe('name');

    const updated = await w.submit(
      { name: 'Keepers', 'master-style': 'grainy 16mm film', negative: 'text, logos' },
      { view: options },
    );
    expect(updated.ack).toBeUndefined();
    // The same private card, replaced in place: the options shown, the same cost.
    const replaced = await w.reply(more.responseUrl);
    expect(replaced.replace_original).toBe(true);
    const text = blocksText(replaced.blocks as unknown[]);
    expect(text).toContain('Keepers');
    expect(text).toContain('grainy 16mm film');
    expect(text).toContain('text, logos');
    expect(text).toContain('*20 credits*');
    expect(buttonLabels(replaced)).toEqual(['Create (20 credits)', 'More options', 'Cancel']);
    expect(posts()).toEqual([]);

    const create = await w.click(
      { ...ephemeralCard, blocks: replaced.blocks as unknown[] },
      'video.create.confirm',
    );
    expect(blocksText((await w.reply(create.responseUrl)).blocks as unknown[])).toContain(
      'Creating “Keepers”',
    );
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.body).toMatchObject({
      script: SCRIPT,
      voiceId: voice,
      model: 'storyboard',
      name: 'Keepers',
      masterStyle: 'grainy 16mm film',
      globalNegativePrompt: 'text, logos',
    });
  });
});
