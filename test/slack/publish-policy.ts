/**
 * The team policy most Slack approval tests start from, set the workspace way by alice (a Slack admin):
 * publishing needs an approval, and bob approves.
 */
import { expect } from 'vitest';
import { ALICE, BOB, type SlackWorld } from './world.js';

export async function bobApprovesPublishing(w: SlackWorld): Promise<void> {
  for (const line of [
    `settings role admin <@${ALICE}>`,
    'settings approval publish',
    `settings approvers <@${BOB}>`,
  ]) {
    const set = await w.command(line, { raw: true });
    expect(JSON.stringify(await w.reply(set.responseUrl)), line).toContain('Workspace settings updated');
  }
}

/** Alice asks to publish `video` to `platform`; the request is sent for approval and its card posted. */
export async function askToPublish(w: SlackWorld, video: string, platform: string): Promise<void> {
  const asked = await w.command(`publish ${video} ${platform}`);
  expect(JSON.stringify(await w.reply(asked.responseUrl))).toContain('Sent for approval');
  await w.h.flush();
}
