/**
 * Every documented error type of the video API, provoked for real against the simulator, and the words the
 * user then reads. Where a command of this group can meet the error, it goes through the bot; otherwise the
 * real client's error object goes through `describeApiError`, the same function the dispatcher uses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createVideoApiClient } from '../../../src/api/index.js';
import { code } from '../../../src/core/text/text.js';
import { systemClock } from '../../../src/core/time/system-clock.js';
import { describeApiError } from '../../../src/core/video-api/api-errors.js';
import { VideoApiError } from '../../../src/core/video-api/video-api.js';
import { commandsAsTyped } from '../../support/commands-as-typed.js';
import { createWorld, DEMO_KEY, textOf, type World } from './world.js';

const POOR_KEY = 'fl_live_poor_team_key_5555555555555555';
const CAPPED_KEY = 'fl_live_capped_team_key_666666666666666';
const NARROW_KEY = 'fl_live_narrow_team_key_77777777777777';
const GONE_KEY = 'fl_live_revoked_team_key_8888888888888';

async function caught(call: Promise<unknown>): Promise<VideoApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof VideoApiError) return error;
    throw error;
  }
  throw new Error('the call succeeded');
}

const script = 'Ten seconds about why the sky is blue at noon.';

describe('API errors in words', () => {
  let w: World;
  afterEach(async () => w.close());

  async function world(): Promise<World> {
    w = await createWorld({
      teams: [
        { name: 'Poor Team', credits: 10, keys: [{ key: POOR_KEY }] },
        { name: 'Capped Team', credits: 500, projectCap: 1, keys: [{ key: CAPPED_KEY }] },
        { name: 'Narrow Team', keys: [{ key: NARROW_KEY, scopes: ['videos:read', 'catalog:read'] }] },
        { name: 'Gone Team', keys: [{ key: GONE_KEY }] },
      ],
    });
    return w;
  }

  it('invalid_input names the field the service rejected', async () => {
    await world();
    const error = await caught(
      w.api().videos.create({ script: 'too short', voiceId: 'voice_aria_en' }, { idempotencyKey: 'bad-1' }),
    );
    expect(error.type).toBe('invalid_input');
    expect(error.status).toBe(400);
    const words = describeApiError(error);
    expect(words).toMatch(/^The video service rejected the request: .*script/);
  });

  it('unauthorized (revoked key) asks to link a fresh key', async () => {
    await world();
    const gone = await w.user('gone', { key: GONE_KEY });
    expect(textOf(await w.run('whoami', gone))).toContain('You act as Gone Team');
    w.sim.sim.revokeKey(GONE_KEY);
    const response = await w.run('credits', gone);
    expect(textOf(response)).toContain(
      'The video service no longer accepts your API key (revoked or wrong). Run `/reel link` with a fresh key.',
    );
  });

  it('insufficient_credits shows cost and balance when known, and never charges', async () => {
    await world();
    const error = await caught(
      w.api(POOR_KEY).videos.create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: 'poor-1' }),
    );
    expect(error.type).toBe('insufficient_credits');
    expect(error.status).toBe(402);
    expect(describeApiError(error, { cost: 20, balance: 10 })).toBe(
      'Not enough credits: this costs 20 and your team has 10. Top up in the dashboard, or pick a cheaper model (storyboard costs 20).',
    );
    expect(commandsAsTyped(describeApiError(error))).toContain(
      'Check `/reel credits` and top up in the dashboard.',
    );
    expect(w.sim.sim.balance(POOR_KEY)).toBe(10);
    const credits = await w.run('credits', await w.user('poor', { key: POOR_KEY }));
    expect(textOf(credits)).toContain('Credits: 10');
    expect(textOf(credits)).toContain('less than the cheapest video');
  });

  it('forbidden_scope names the missing scope', async () => {
    await world();
    const narrow = await w.user('narrow', { key: NARROW_KEY });
    const response = await w.run('credits', narrow);
    expect(textOf(response)).toContain(
      'Your API key lacks the `credits:read` scope. Create a key with it in the dashboard and run `/reel link`.',
    );
    expect(textOf(await w.run('analytics', narrow))).toContain('lacks the `analytics:read` scope');
    expect(textOf(await w.run('asset https://cdn.example.com/a.png', narrow))).toContain(
      'lacks the `assets:write` scope',
    );
  });

  it('usage_limit_reached explains the plan cap', async () => {
    await world();
    const api = w.api(CAPPED_KEY);
    await api.videos.create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: 'cap-1' });
    const error = await caught(
      api.videos.create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: 'cap-2' }),
    );
    expect(error.type).toBe('usage_limit_reached');
    expect(error.status).toBe(403);
    expect(commandsAsTyped(describeApiError(error))).toBe(
      "Your plan's cap on video projects is reached. Delete old videos with `/reel delete` or upgrade the plan.",
    );
  });

  it('not_found says it is not in the caller’s team (another team’s id too)', async () => {
    await world();
    const mine = await w
      .api()
      .videos.create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: 'nf-1' });
    const error = await caught(w.api(POOR_KEY).videos.get(mine.id));
    expect(error.type).toBe('not_found');
    expect(error.status).toBe(404);
    expect(describeApiError(error, { what: `Video ${code(mine.id)}` })).toBe(
      `Video \`${mine.id}\` was not found in your team.`,
    );
    expect(describeApiError(error)).toBe('That was not found in your team.');
    const response = await w.run('subscribe series 0123456789abcdef01234567');
    expect(textOf(response)).toContain('No series matches `0123456789abcdef01234567` in your team.');
  });

  it('conflict says it changed and that it was re-read', async () => {
    await world();
    const api = w.api();
    const video = await api.videos.create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: 'cf-1' });
    const error = await caught(api.posts.cancel(video.id));
    expect(error.type).toBe('conflict');
    expect(error.status).toBe(409);
    expect(describeApiError(error)).toMatch(
      /^That changed meanwhile: .+ I re-read it; check the current state and try again\.$/,
    );
    // Reusing an idempotency key with another body is a conflict too.
    await api.assets.create({ url: 'https://cdn.example.com/a.mp4' }, { idempotencyKey: 'same-key' });
    const reused = await caught(
      api.assets.create({ url: 'https://cdn.example.com/b.mp4' }, { idempotencyKey: 'same-key' }),
    );
    expect(reused.type).toBe('conflict');
    expect(describeApiError(reused)).toContain('That changed meanwhile:');
  });

  it('rate_limited says when to try again', async () => {
    await world();
    for (let i = 0; i < 10; i++) {
      await w.api().videos.create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: `rl-${i}` });
    }
    // A second client of the same key with its own budget sends the 11th create: the service answers 429.
    const other = createVideoApiClient({
      baseUrl: w.sim.url,
      apiKey: DEMO_KEY,
      clock: w.clock,
      timeoutClock: systemClock,
      maxRateLimitWaitMs: 0,
    });
    const error = await caught(
      other.videos.create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: 'rl-extra' }),
    );
    expect(error.type).toBe('rate_limited');
    expect(error.details.retryAfter).toBeGreaterThan(0);
    expect(describeApiError(error)).toBe(
      `The video service is busy for your team. Try again in ${error.details.retryAfter} s.`,
    );
    // The bot's own client refuses before sending once its budget is spent, with the same words.
    const local = createVideoApiClient({
      baseUrl: w.sim.url,
      apiKey: DEMO_KEY,
      clock: w.clock,
      timeoutClock: systemClock,
      maxRateLimitWaitMs: 0,
    });
    for (let i = 0; i < 10; i++) {
      await local.videos
        .create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: `local-${i}` })
        .catch(() => undefined);
    }
    const budget = await caught(
      local.videos.create({ script, voiceId: 'voice_aria_en' }, { idempotencyKey: 'l-x' }),
    );
    expect(budget.type).toBe('rate_limited');
    expect(describeApiError(budget)).toMatch(
      /^The video service is busy for your team\. Try again in \d+ s\.$/,
    );
  });

  it('internal_error (every request fails) says nothing was charged twice', async () => {
    await world();
    w.sim.sim.setKnobs({ serverErrorRate: 1 });
    const response = await w.run('voices');
    expect(textOf(response)).toContain(
      'The video service had an internal error and did not finish. Nothing was charged twice; try again in a moment.',
    );
    const error = await caught(w.api().credits.get());
    expect(error.type).toBe('internal_error');
    expect(error.status).toBe(500);
  });

  it('an unreachable service is a connection error in plain words', async () => {
    await world();
    const dead = createVideoApiClient({
      baseUrl: 'http://127.0.0.1:9/api/v1',
      apiKey: DEMO_KEY,
      clock: w.clock,
      timeoutClock: systemClock,
      maxAttempts: 1,
    });
    const error = await caught(dead.me.get());
    expect(error.type).toBe('connection_error');
    expect(describeApiError(error)).toBe('I could not reach the video service. Try again in a moment.');
  });
});
