/**
 * Every core command once through Slack: each command's first documented example is sent as a signed slash
 * command. Slack gets its 200 before the work (ack first), and the answer arrives through response_url
 * (or, for a form, as a modal from the trigger id). Nothing fails with an internal error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODULES } from '../../src/core/commands/index.js';
import { completedVideo } from '../core/publishing/helpers.js';
import { blocksText, expectValidBlocks, type SlackWorld, slackWorld } from './world.js';

let w: SlackWorld;
beforeAll(async () => {
  w = await slackWorld();
  // Something for `last`, a video named like the examples, and a series named like them.
  await completedVideo(w.h, 'Octopus facts', { render: true });
  const created = await w.command(
    'series create "Night Terrors" --source ai_story --niche scary_stories --schedule "daily 21:00 Europe/Paris"',
  );
  // Its cost card first (ephemeral); Confirm creates it.
  const cost = await w.reply(created.responseUrl);
  const confirm = await w.click(
    { blocks: cost.blocks as unknown[], ts: '1700000001.000100', ephemeral: true },
    'series.create.confirm',
  );
  await w.reply(confirm.responseUrl);
}, 60_000);
afterAll(() => w.close());

/** `unlink` last: it removes the key every other command runs under. */
const EXAMPLES = MODULES.flatMap((m) => m.commands ?? [])
  .map((c) => ({ name: c.name, example: c.examples[0] as string }))
  .sort((a, b) => Number(a.name === 'unlink') - Number(b.name === 'unlink'));

describe('every command through Slack', () => {
  it('covers the whole command table', () => {
    expect(EXAMPLES.map((e) => e.name).sort()).toEqual(w.h.bot.commands.map((c) => c.name).sort());
  });

  it.each(EXAMPLES)('/reel $example', async ({ example }) => {
    const started = performance.now();
    const sent = await w.command(example);
    expect(sent.status).toBe(200);
    // The HTTP acknowledgement does not wait for the video API.
    expect(performance.now() - started).toBeLessThan(3_000);
    const answer = await w.fake.waitFor(() => {
      const reply = w.fake.responsesTo(sent.responseUrl)[0];
      if (reply) return { kind: 'reply' as const, blocks: reply.blocks as unknown[], reply };
      const modal = w.fake.callsOf('views.open').find((c) => c.args.trigger_id === sent.triggerId);
      if (modal)
        return {
          kind: 'modal' as const,
          blocks: (modal.args.view as { blocks: unknown[] }).blocks,
          reply: undefined,
        };
      return undefined;
    }, `an answer to ${example}`);
    expect(blocksText(answer.blocks)).not.toContain('Something went wrong on my side');
    // Links arrive as <https://…> (should_escape): the core still reads a URL.
    expect(blocksText(answer.blocks)).not.toContain("isn't a public http(s) URL");
    if (answer.kind === 'reply') {
      expect(['ephemeral', 'in_channel']).toContain(answer.reply?.response_type);
      expect(String(answer.reply?.text).length).toBeGreaterThan(0);
      expectValidBlocks(answer.blocks);
    } else {
      expect(answer.blocks.length).toBeLessThanOrEqual(100);
    }
  });
});
