/** The assertions every chaos run ends with: every flow finished once, nothing charged or published twice. */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { postsOf, type RigResult } from './rig.js';

export const LONG = process.env.CHAOS_LONG === '1';

export function expectEveryFlowExactlyOnce(result: RigResult): void {
  const problems = result.flows.filter((f) => !f.done).map((f) => `flow ${f.n}: ${f.error ?? 'not done'}`);
  expect(problems).toEqual([]);
  for (const f of result.flows) {
    const videoId = f.videoId as string;
    // One terminal notification per state change, as the users of the channel saw it.
    const line = `flow ${f.n} (${videoId})`;
    expect(postsOf(result, f, (r) => r.title.startsWith('✅')).length, `${line}: ready`).toBe(1);
    expect(postsOf(result, f, (r) => r.title.startsWith('🎞️')).length, `${line}: rendered`).toBe(1);
    expect(postsOf(result, f, (r) => r.title === 'Posted to X').length, `${line}: posted`).toBe(1);
    // One status card for the video (the card's first post is keyed by the card).
    expect(postsOf(result, f, (r) => !r.threadOf && r.title === `Flow ${f.n}`).length, `${line}: card`).toBe(
      1,
    );
    // The service side: charged once, published once.
    expect(result.sim.chargesFor(videoId).length, `${line}: charges`).toBe(1);
    expect(
      result.sim.publishedPosts().filter((p) => p.videoId === videoId).length,
      `${line}: published`,
    ).toBe(1);
  }
  // No video was created beyond one per flow (a retried create never charged a second video).
  for (const team of result.teams) {
    const flows = result.flows.filter((f) => f.team === team).length;
    const charges = result.sim.ledger(team).filter((e) => e.videoId !== undefined);
    expect(charges.length, `${team}: videos charged`).toBe(flows);
  }
  expect(result.outbox).toEqual({ pending: 0, failed: 0, errors: [] });
}

/** No API key, nor its secret part, in the database files, the logs or anything sent to chat. */
export function expectNoSecrets(result: RigResult): void {
  const files = [
    result.paths.db,
    `${result.paths.db}-wal`,
    `${result.paths.db}-shm`,
    result.paths.log,
    result.paths.chat,
    result.paths.attempts,
  ];
  const contents = files.map((path) => {
    try {
      return { path, bytes: readFileSync(path) };
    } catch {
      return { path, bytes: Buffer.alloc(0) };
    }
  });
  // The log must exist and be substantial, or the sweep proves nothing.
  expect(contents.find((c) => c.path === result.paths.log)?.bytes.length ?? 0).toBeGreaterThan(10_000);
  for (const key of result.keys) {
    // The secret part: everything after the 12-character prefix shown to users (`fl_live_1a2b`).
    const needles = [key, key.slice(12)];
    for (const { path, bytes } of contents) {
      for (const needle of needles) {
        expect(bytes.includes(Buffer.from(needle)), `${needle.slice(0, 12)}… found in ${path}`).toBe(false);
      }
    }
  }
}

/** One line per run for the test output: what the chaos actually did. */
export function summary(label: string, result: RigResult): string {
  const resent =
    result.attempts.filter((a) => a.op === 'post').length - result.chat.filter((c) => c.op === 'post').length;
  const retries = result.flows.reduce((n, f) => n + f.retries, 0);
  const proxy = result.proxy ? ` proxy=${JSON.stringify(result.proxy.counts)}` : '';
  return `${label}: ${result.flows.length} flows in ${Math.round(result.realMs / 1000)} s, ${result.kills} kills, ${result.starts} starts, ${retries} user retries, ${resent} re-sent posts dropped by dedupe id${proxy}`;
}
