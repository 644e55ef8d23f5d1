/**
 * The chart libraries (ECharts, resvg and the DejaVu fonts src/charts/render-png.ts names) cost start-up time
 * and memory the bot does not need until it draws a chart: none of them is loaded at start-up. The app runs as
 * a child process, as `npm start` runs it (the compiled bot), with an ESM resolve hook that records every module it
 * resolves (test/support/record-imports.mjs). In demo mode and in a production configuration (the service at
 * VIDEO_API_URL with a shared key, Slack and Discord against their fakes, the playground on), no chart module
 * is loaded once `/healthz` answers, nor after a card without a chart (`credits`); `analytics` with a post to
 * count draws its chart, and ECharts is then loaded. The embedded simulator likewise loads in demo mode only.
 * The other libraries are bundled: only those scripts/build.mjs leaves outside load from node_modules.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SIMULATOR_STATE_FILE } from '../../src/main.js';
import { apiOf, completedVideo } from '../core/publishing/helpers.js';
import { IDS } from '../discord/world.js';
import { compiledBotArgs } from '../support/compiled-bot.js';
import { startFakePlatforms } from '../support/fake-platforms.js';
import { freePort } from '../support/free-port.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';

const root = join(import.meta.dirname, '../..');
const HOOK = join(root, 'test/support/record-imports.mjs');
/** Modules of the chart libraries and the compiled chunks of src/charts (render-png names the font files). */
const CHART_MODULE =
  /\/node_modules\/(?:echarts|zrender|@resvg|dejavu-fonts-ttf)\/|\/dist\/render-(?:png|svg)-/;

/** The compiled chunk of the embedded simulator, which only demo mode loads. */
const SIMULATOR_CHUNK = /\/dist\/simulator-\w+\.js$/;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A simulator team with one video posted to YouTube three days ago: `analytics` then has a chart to draw. */
async function teamWithAPost(): Promise<Harness> {
  const h = await createHarness();
  cleanups.push(() => h.close());
  const id = await completedVideo(h, 'Octopus facts', { render: true });
  await apiOf(h).posts.publish(
    { videoId: id, platform: 'youtube', title: 'Octopus facts' },
    { idempotencyKey: 'lazy-charts-post' },
  );
  h.clock.advance(3 * 24 * 3600_000);
  return h;
}

interface Running {
  url: string;
  /** Every module URL resolved so far. */
  loaded(): string[];
}

/** The compiled bot with the recording hook and only `env` (and PATH, HOME) set; ready at `/healthz`. */
async function startRecorded(dataDir: string, env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const record = join(dataDir, 'imports.txt');
  writeFileSync(record, '');
  const child: ChildProcess = spawn(process.execPath, compiledBotArgs('--import', HOOK), {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      REELBOT_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RECORD_IMPORTS: record,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (b: Buffer) => {
    stderr = (stderr + b.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the app exited: ${stderr}`);
    if (i > 600) throw new Error(`no /healthz in 60 s: ${stderr}`);
    const status = await fetch(`${url}/healthz`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, loaded: () => readFileSync(record, 'utf8').split('\n').filter(Boolean) };
}

/** A command typed in the playground by alice; the HTML of the messages it answered with. */
async function command(url: string, text: string): Promise<string> {
  const res = await fetch(`${url}/playground/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'alice', channel: 'general', text }),
  });
  const body = (await res.json()) as { messages?: { html: string }[] };
  expect(res.status).toBe(200);
  return (body.messages ?? []).map((m) => m.html).join('\n');
}

/** What scripts/build.mjs leaves outside the bundle and the bot loads at start-up: logging and SQLite. */
const UNBUNDLED = new Set(['pino', 'better-sqlite3']);

/** The packages the app has loaded from node_modules, by name. */
const packagesLoaded = (app: Running): string[] => [
  ...new Set(app.loaded().flatMap((url) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1] ?? [])),
];

const chartModules = (app: Running) => app.loaded().filter((url) => CHART_MODULE.test(url));

/** What both configurations must show: nothing of the charts until one is drawn, then ECharts. */
async function expectChartsLoadedOnlyWhenDrawn(app: Running): Promise<void> {
  // The recorder works: the app's own modules and the libraries left outside the bundle are in the record.
  expect(app.loaded().some((url) => url.endsWith('/dist/main.js'))).toBe(true);
  expect(app.loaded().some((url) => url.includes('/node_modules/pino/'))).toBe(true);
  expect(chartModules(app), 'chart modules loaded at start-up').toEqual([]);
  // The libraries are bundled (scripts/build.mjs): only those the build leaves outside load from node_modules.
  expect(packagesLoaded(app).filter((name) => !UNBUNDLED.has(name))).toEqual([]);

  // A card with a table and no chart draws nothing.
  expect(await command(app.url, '/reel credits')).toContain('data-testid="card-table"');
  expect(chartModules(app), 'chart modules loaded for a card without a chart').toEqual([]);

  // analytics draws its chart: ECharts is loaded now, resvg not (the playground shows SVG, not PNG).
  const html = await command(app.url, '/reel analytics');
  expect(html).toContain('src="data:image/svg+xml;base64,');
  expect(chartModules(app).some((url) => url.includes('/node_modules/echarts/'))).toBe(true);
  expect(chartModules(app).filter((url) => url.includes('@resvg'))).toEqual([]);
}

describe('the chart libraries load only when a chart is drawn', () => {
  it('in demo mode', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelbot-lazy-charts-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // The demo continues its simulator's saved state (the team's key, its video and post), as after a restart.
    const h = await teamWithAPost();
    writeFileSync(join(dataDir, SIMULATOR_STATE_FILE), JSON.stringify(h.sim.sim.snapshot()));
    const app = await startRecorded(dataDir, {});
    await expectChartsLoadedOnlyWhenDrawn(app);
    expect(app.loaded().some((url) => SIMULATOR_CHUNK.test(url))).toBe(true);
  });

  it('in a production configuration: the service, Slack, Discord and the playground', {
    timeout: 120_000,
  }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelbot-lazy-charts-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const h = await teamWithAPost();
    const platforms = await startFakePlatforms();
    cleanups.push(() => platforms.close());
    const app = await startRecorded(dataDir, {
      VIDEO_API_URL: h.sim.url,
      VIDEO_API_KEY: DEMO_KEY,
      REELBOT_WORKSPACES: `discord:${IDS.guild},playground:local`,
      ...platforms.env,
      PLAYGROUND: '1',
    });
    // Both platforms' adapters (their compiled chunks) are loaded at start-up (Discord's draws PNG charts,
    // Slack's degrades them).
    expect(app.loaded().some((url) => /\/dist\/discord-\w+\.js$/.test(url))).toBe(true);
    expect(app.loaded().some((url) => /\/dist\/slack-\w+\.js$/.test(url))).toBe(true);
    await expectChartsLoadedOnlyWhenDrawn(app);
    // Talking to the service at VIDEO_API_URL, the bot never loads the embedded simulator (demo mode does).
    expect(app.loaded().filter((url) => SIMULATOR_CHUNK.test(url))).toEqual([]);
  });
});
