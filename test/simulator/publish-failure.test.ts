/**
 * The `publishFailurePlatforms` knob: POST /posts to a listed platform is refused by that platform (400
 * invalid_input naming it, nothing posted) while every other platform posts as usual; off again, it posts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CliError, parseCli } from '../../src/simulator/cli-options.js';
import { type Harness, renderedVideo, startHarness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('publishFailurePlatforms', () => {
  it('refuses the listed platform only, until the knob is cleared', async () => {
    const sim = await startHarness({ rateLimits: false, publishFailurePlatforms: ['tiktok'] });
    h = sim;
    const video = await renderedVideo(sim);
    const post = (platform: string, key: string) =>
      sim.api<{ postUrl: string }>('POST', '/posts', {
        body: { videoId: video, platform },
        headers: { 'idempotency-key': key },
      });
    const refused = await post('tiktok', 'k1');
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ type: 'invalid_input' });
    expect(refused.json.error.message).toMatch(/^platform: tiktok refused the upload/);
    expect((await post('youtube', 'k2')).status).toBe(200);
    expect(sim.run.sim.publishedPosts().map((p) => p.platform)).toEqual(['youtube']);

    sim.run.sim.setKnobs({ publishFailurePlatforms: [] });
    expect((await post('tiktok', 'k3')).status).toBe(200);
    expect(sim.run.sim.publishedPosts().map((p) => p.platform)).toEqual(['youtube', 'tiktok']);
  });

  it('is set from the command line, platforms checked', () => {
    expect(parseCli(['--publish-failure-platforms', 'tiktok,x'], {}).options.publishFailurePlatforms).toEqual(
      ['tiktok', 'x'],
    );
    expect(
      parseCli([], { SIM_PUBLISH_FAILURE_PLATFORMS: 'youtube' }).options.publishFailurePlatforms,
    ).toEqual(['youtube']);
    expect(() => parseCli(['--publish-failure-platforms', 'myspace'], {})).toThrow(CliError);
  });
});
