/**
 * Every parameter within reach, through the real discord.js Client against the fake Discord: advanced options typed in the
 * command's `more` option reach the API. `/reel publish … more:--title … --description …` lands in the
 * simulator's POST /posts body; `/reel analytics more:--account <label>` in the GET /analytics query; an
 * unknown account label and a too-long title are answered and send nothing. Both simulator profiles.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { completedVideo } from '../core/publishing/helpers.js';
import { discordWorld, textOfMessage, type World } from './world.js';

let w: World;
afterEach(() => w?.close());

describe.each(['spec', 'real'] as const)('advanced options through `more` (%s profile)', (profile) => {
  it('/reel publish more:--title --description reaches POST /posts; a too-long title sends nothing', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    await completedVideo(w.h, 'Octopus facts', { render: true });
    const posts = () => w.h.sim.sim.received({ method: 'POST', path: '/posts' });

    const tooLong = await w.slash('publish', {
      video: 'Octopus facts',
      platforms: 'youtube',
      more: `--title ${'x'.repeat(120)}`,
    });
    expect(textOfMessage(w.answer(tooLong))).toContain('YouTube allows 100');
    expect(posts()).toEqual([]);

    const sent = await w.slash('publish', {
      video: 'Octopus facts',
      platforms: 'youtube',
      privacy: 'unlisted',
      more: '--title "Eight arms, three hearts" --description "Sources below."',
    });
    expect(textOfMessage(w.answer(sent))).toContain('Published to YouTube');
    expect(posts()).toHaveLength(1);
    expect(posts()[0]?.body).toMatchObject({
      platform: 'youtube',
      privacyStatus: 'unlisted',
      title: 'Eight arms, three hearts',
      description: 'Sources below.',
    });
  });

  it('/reel analytics more:--account resolves the label to its authId; an unknown one is refused', async () => {
    w = await discordWorld({ harness: { simulator: { profile } } });
    const calls = () => w.h.sim.sim.received({ method: 'GET', path: '/analytics' });

    const unknown = await w.slash('analytics', { more: '--account "Nobody here"' });
    expect(textOfMessage(w.answer(unknown))).toContain('matches `Nobody here`');
    expect(calls()).toEqual([]);

    const shown = await w.slash('analytics', { platform: 'youtube', more: '--account "Demo Channel"' });
    expect(textOfMessage(w.answer(shown))).toContain('Demo Channel');
    expect(calls()[0]?.query).toMatchObject({ platform: 'youtube', authId: 'acc_demo_youtube' });
  });
});
