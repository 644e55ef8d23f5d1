/**
 * A linked API key never leaves the store's ciphertext: not in a log line (raw pino output, every level,
 * the client's debug lines included), not in a chat message or response, not in the SQLite file's bytes.
 * The key deliberately does not look like `fl_live_…`, so the logger's masking cannot hide a leak.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Response } from '../../../src/core/cards.js';
import { LINK_FORM_ID } from '../../../src/core/commands/account/link.js';
import { createWorld, type World } from './world.js';

const SECRET = 'sk_team_4f9c2e7a1b8d3f6e0a5c9b2d7e4f1a8c';
/** The part after the displayed prefix: must not appear anywhere either. */
const SECRET_TAIL = SECRET.slice(12);

describe('a linked key stays secret', () => {
  let w: World;
  afterEach(async () => w?.close());

  it('never appears in logs, chat, responses or the database file', async () => {
    w = await createWorld({
      fileStore: true,
      teams: [{ name: 'Secret Team', credits: 300, keys: [{ key: SECRET }] }],
    });
    const responses: Response[] = [];
    const bob = w.user('bob', { key: null });
    const carol = w.user('carol', { key: null });
    const say = async (text: string, as = bob) => {
      responses.push(await w.run(text, as));
    };

    // Pasted in the channel: refused.
    await say(`link ${SECRET}`);
    await say(`link "${SECRET}"`);
    // The form, a failed attempt with a near miss, then the real key.
    await say('link');
    responses.push(await w.submit(LINK_FORM_ID, '', { key: `${SECRET}x` }, bob));
    responses.push(await w.submit(LINK_FORM_ID, '', { key: ` ${SECRET} ` }, bob));
    responses.push(await w.submit(LINK_FORM_ID, '', { key: SECRET }, carol));
    expect(w.store.keys.get(bob.user)?.apiKey).toBe(SECRET);

    // Use it: interactive calls, a subscription polled in the background, failures.
    for (const text of [
      'whoami',
      'credits',
      'voices',
      'accounts',
      'options models',
      'analytics',
      'subscribe calendar',
      'subscribe videos',
    ]) {
      await say(text);
    }
    await w
      .api(SECRET)
      .videos.create(
        { script: 'A script that is long enough to pass.', voiceId: 'voice_aria_en', name: 'Secret video' },
        { idempotencyKey: 'secret-video' },
      );
    for (let i = 0; i < 5; i++) await w.advance(60_000);
    w.sim.sim.setKnobs({ serverErrorRate: 1 });
    await say('credits', carol);
    await w.advance(10 * 60_000);
    w.sim.sim.setKnobs({ serverErrorRate: 0 });
    w.sim.sim.revokeKey(SECRET);
    await say('whoami');
    await w.advance(10 * 60_000);
    await say('unlink', carol);

    // Something did happen: the test is not vacuous.
    expect(w.chat.posts.length).toBeGreaterThan(0);
    expect(w.logs.length).toBeGreaterThan(20);
    expect(w.logs.join('')).toContain('"level":20');

    const seen = [
      ...w.logs,
      ...responses.map((r) => JSON.stringify(r)),
      ...w.chat.posts.map((p) => JSON.stringify(p)),
      ...w.chat.updates.map((u) => JSON.stringify(u)),
      ...w.chat.notices.map((n) => JSON.stringify(n)),
    ];
    for (const text of seen) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(SECRET_TAIL);
    }

    const dir = dirname(w.storePath as string);
    const scan = () => {
      for (const file of readdirSync(dir)) {
        const bytes = readFileSync(join(dir, file));
        expect(bytes.includes(Buffer.from(SECRET)), file).toBe(false);
        expect(bytes.includes(Buffer.from(SECRET_TAIL)), file).toBe(false);
        expect(bytes.includes(Buffer.from(SECRET, 'utf16le')), file).toBe(false);
      }
    };
    scan();
    // The store still holds it, encrypted, for bob.
    expect(w.store.keys.get(bob.user)?.apiKey).toBe(SECRET);
    await w.poller.stop();
    await w.sender.stop();
    w.store.close();
    // After the WAL is checkpointed into the main file.
    scan();
    expect(readdirSync(dir)).toContain('reelbot.db');
  });
});
