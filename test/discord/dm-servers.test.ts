/**
 * A Discord DM belongs to no server: it follows the strictest of the servers' policies. Two servers naming
 * different publishers leave nobody to publish from a DM — never everyone. Real discord.js over the fake
 * gateway, both simulator profiles.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { text } from '../core/approvals/scenario-kit.js';
import { createDiscordDriver, type DiscordScenarioDriver } from './approvals-driver.js';

describe.each(['spec', 'real'] as const)('Discord DMs under two servers, %s profile', (profile) => {
  let d: DiscordScenarioDriver;
  beforeEach(async () => {
    d = await createDiscordDriver({ profile });
  });
  afterEach(async () => d.close());

  it('two servers with disjoint publishers: nobody publishes from a DM, each server keeps its own', async () => {
    const id = await d.fixtures.renderedVideo('Between two servers');
    const first = await d.run('alice', `settings role publish ${d.mention('bob')}`);
    expect(first.card?.title, text(first)).toBe('Workspace settings updated');
    const second = await d.runInSecondServer('alice', `settings role publish ${d.mention('carol')}`);
    expect(second.card?.title, text(second)).toBe('Workspace settings updated');
    // The admin hears that DMs now admit nobody, and how the servers fix it.
    expect(text(second)).toMatch(/Nobody may \W*publish\W* from a direct message/);
    expect(text(first)).not.toMatch(/Nobody may/);

    for (const who of ['bob', 'carol', 'dave'] as const) {
      const refused = await d.run({ user: who, channel: 'dm' }, `publish ${id} youtube`);
      expect(text(refused), who).toContain('Nobody may publish, schedule, unschedule or delete videos');
    }
    expect(d.fixtures.publishedPosts()).toEqual([]);
    const shown = text(await d.run({ user: 'bob', channel: 'dm' }, 'settings'));
    expect(shown).toContain('publish: nobody · from the servers’ policies');
    expect(shown).toMatch(
      /Nobody may \W*publish\W* from a direct message: the servers' rules name no one in common/,
    );

    // In the first server, its own publisher publishes.
    const published = await d.run('bob', `publish ${id} youtube`);
    expect(published.card?.title, text(published)).toMatch(/Published/);
    expect(d.fixtures.publishedPosts()).toEqual([{ videoId: id, platform: 'youtube' }]);
  });
});
