/**
 * The newest card elements in a real headless Chromium, end to end: the playground adapter in front of the
 * real core, poller and outbox, the simulator over HTTP, one test clock. A video made from the composer shows
 * its thumbnail options as one sideways-scrolling row of cards whose "Use this" reaches the simulator;
 * `credits` shows the ledger as a real `<table>`; `analytics` shows its chart as an SVG image whose alt text and
 * caption carry the simulator's numbers. Screenshots of each land in `test-output/playground/data-*.png`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlaygroundAdapter } from '../../adapters/playground/index.js';
import { chartNumber } from '../../src/core/text/chart.js';
import type { HttpServer } from '../../src/http/server.js';
import { apiOf, completedVideo } from '../core/publishing/helpers.js';
import { CHROMIUM, collectPageProblems, launchChromium } from '../support/browser.js';
import { createHarness, DEMO_KEY, type Harness } from '../support/harness.js';
import { servePlayground } from '../support/playground-server.js';

const SHOTS = 'test-output/playground';

describe.skipIf(!existsSync(CHROMIUM)).each(['spec', 'real'] as const)(
  'carousel, tables and charts in a browser on the %s profile',
  (profile) => {
    let h: Harness;
    let http: HttpServer;
    let adapter: PlaygroundAdapter;
    let url: string;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      h = await createHarness({ platform: 'playground', simulator: { profile } });
      await h.user('alice');
      // The outbox delivers the live card through the playground's own sender, so the page sees it over SSE.
      ({ http, adapter, url } = await servePlayground(h, {
        channels: ['general'],
        users: [{ id: 'alice', name: 'Alice' }],
      }));
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      collectPageProblems(page, problems);
      await page.goto(`${url}/?user=alice`);
      await page.locator('[data-testid="connection"][data-state="live"]').waitFor();
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await adapter?.stop();
      await http?.close();
      await h?.close();
    });

    const send = async (text: string) => {
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-input').press('Enter');
    };
    /** The last bot card titled `title` (a regular expression on the whole title). */
    const cardTitled = (title: RegExp) =>
      page
        .locator('[data-testid="card"]')
        .filter({ has: page.getByTestId('card-title').filter({ hasText: title }) })
        .last();
    const shot = async (locator: ReturnType<Page['locator']>, name: string) => {
      await page.mouse.move(0, 0);
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await locator.scrollIntoViewIfNeeded();
      await locator.screenshot({ path: `${SHOTS}/data-${profile}-${name}.png` });
    };
    const loaded = (img: ReturnType<Page['locator']>) =>
      img.evaluate((el: HTMLImageElement) =>
        el.complete
          ? el.naturalWidth
          : new Promise((r) => el.addEventListener('load', () => r(el.naturalWidth))),
      );

    it('shows the thumbnail options as one scrolling row of three cards whose pick reaches the service', {
      timeout: 120_000,
    }, async () => {
      await send('/reel create --name "Phone tips" Five tips for filming on a phone, in sixty seconds flat.');
      const confirm = page
        .getByTestId('card-button')
        .filter({ hasText: /^Create/ })
        .last();
      await confirm.waitFor({ timeout: 15_000 });
      await confirm.click();
      const card = cardTitled(/^Phone tips$/);
      const carousel = card.locator('[data-testid="card-gallery"].card-carousel');
      // Virtual time until the poller saw the thumbnails and the outbox put them on the page.
      await h.until(async () => (await carousel.count()) > 0, { stepMs: 5_000, maxMs: 20 * 60_000 });
      const items = carousel.locator('[data-gallery-item]');
      expect(await items.count()).toBe(3);

      // One row: the three cards side by side at the same height, the row scrolling sideways, not wrapping.
      const boxes = await Promise.all([0, 1, 2].map((i) => items.nth(i).boundingBox()));
      expect(new Set(boxes.map((b) => Math.round(b?.y ?? -1))).size).toBe(1);
      const xs = boxes.map((b) => b?.x ?? 0);
      expect(xs[0]! < xs[1]! && xs[1]! < xs[2]!).toBe(true);
      expect(await carousel.evaluate((el) => getComputedStyle(el).overflowX)).toBe('auto');
      expect(await carousel.evaluate((el) => getComputedStyle(el).gridAutoFlow)).toBe('column');

      // Each card: its picture (loaded), its "Option N" title, and "Use this" under the picture.
      for (const [i, item] of (await items.all()).entries()) {
        const image = item.getByTestId('card-image');
        expect(await loaded(image)).toBeGreaterThan(0);
        expect(await image.getAttribute('alt')).toBeTruthy();
        // The whole thumbnail, not a crop of it: people choose by what it shows, edge to edge.
        const [natural, shown] = await image.evaluate((el: HTMLImageElement) => [
          el.naturalHeight / el.naturalWidth,
          el.clientHeight / el.clientWidth,
        ]);
        expect(shown).toBeCloseTo(natural ?? 0, 1);
        expect(await item.locator('strong').first().innerText()).toBe(`Option ${i + 1}`);
        const picture = await image.boundingBox();
        const button = await item.getByRole('button', { name: 'Use this' }).boundingBox();
        expect((button?.y ?? 0) >= (picture?.y ?? 0) + (picture?.height ?? 0) - 1).toBe(true);
      }
      await shot(card, 'carousel');
      // On a phone the row scrolls sideways rather than wrapping, and the page itself does not overflow.
      await page.setViewportSize({ width: 420, height: 900 });
      expect(await carousel.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
      const narrow = await Promise.all([0, 1, 2].map((i) => items.nth(i).boundingBox()));
      expect(new Set(narrow.map((b) => Math.round(b?.y ?? -1))).size).toBe(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
      await shot(card, 'carousel-narrow');
      await page.setViewportSize({ width: 1280, height: 900 });

      // "Use this" on the third card: the service is asked for that variant.
      const video = (await apiOf(h).videos.list({})).items[0]?.id ?? '';
      const picks = () =>
        h.sim.sim
          .received({ method: 'POST', path: `/videos/${video}/thumbnail` })
          .map((r) => (r.body as { variantId?: string }).variantId);
      const variants = (await apiOf(h).videos.get(video)).thumbnails?.variants.map((t) => t.id) ?? [];
      expect(variants).toHaveLength(3);
      await items.nth(2).getByRole('button', { name: 'Use this' }).click();
      await expect.poll(picks, { timeout: 15_000 }).toEqual([variants[2]]);
      expect(problems).toEqual([]);
    });

    it('shows the credit ledger as a table with a caption and column headers', {
      timeout: 60_000,
    }, async () => {
      await send('/reel credits');
      const table = cardTitled(/^Credits/).getByTestId('card-table');
      await table.waitFor({ timeout: 15_000 });
      expect(await table.evaluate((el) => el.tagName)).toBe('TABLE');
      expect(await table.locator('caption').innerText()).toBe('Credit ledger');
      const headers = await table.locator('thead th[scope="col"]').allInnerTexts();
      expect(headers.length).toBeGreaterThanOrEqual(2);
      expect(await table.locator('tbody tr').count()).toBeGreaterThan(0);
      // The changes are numbers: right-aligned, each carrying its value.
      const change = table.locator('tbody tr').first().locator('td').first();
      expect(await change.getAttribute('data-value')).toMatch(/^-?\d+(\.\d+)?$/);
      expect(await change.evaluate((el) => getComputedStyle(el).textAlign)).toBe('right');
      // A column of numbers has its header over the numbers' right edge, where its numbers end.
      const header = table.locator('thead th').first();
      expect(await header.innerText()).toBe('Change');
      expect(await header.evaluate((el) => getComputedStyle(el).textAlign)).toBe('right');
      const [headerBox, changeBox] = [await header.boundingBox(), await change.boundingBox()];
      expect((headerBox?.x ?? 0) + (headerBox?.width ?? 0)).toBeCloseTo(
        (changeBox?.x ?? 0) + (changeBox?.width ?? 0),
        0,
      );
      await shot(table, 'table');
      expect(problems).toEqual([]);
    });

    it("shows analytics' chart as an SVG image with the simulator's numbers", {
      timeout: 60_000,
    }, async () => {
      const id = await completedVideo(h, 'Octopus facts', { render: true });
      await apiOf(h).posts.publish(
        { videoId: id, platform: 'youtube', title: 'Octopus facts' },
        { idempotencyKey: `pg-chart-${profile}` },
      );
      h.clock.advance(3 * 24 * 3600_000);

      await send('/reel analytics --range 7');
      const card = cardTitled(/^Analytics/);
      const figure = card.getByTestId('card-chart');
      await figure.waitFor({ timeout: 15_000 });
      const image = figure.locator('img');
      expect(await image.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(await loaded(image)).toBeGreaterThan(0);
      const alt = (await image.getAttribute('alt')) ?? '';
      expect(await figure.locator('figcaption').innerText()).toBe(alt);

      // The numbers are the simulator's: what GET /analytics answers, asked directly.
      const res = await fetch(`${h.sim.url}/analytics?range=7`, {
        headers: { authorization: `Bearer ${DEMO_KEY}` },
      });
      // The newer shape (spec profile) says `byPlatform.<p>.totalViews`, the older (real) `platforms.<p>.views`.
      const { data } = (await res.json()) as {
        data: {
          byPlatform?: Record<string, { totalViews: number }>;
          platforms?: Record<string, { views: number }>;
        };
      };
      const youtube = data.byPlatform?.youtube?.totalViews ?? data.platforms?.youtube?.views ?? 0;
      expect(youtube).toBeGreaterThan(0);
      expect(alt).toMatch(/^Views per platform \(views\):/);
      expect(alt).toContain(`YouTube ${chartNumber(youtube)}`);
      // The drawing says the same: the SVG writes the platform and its number.
      const svg = Buffer.from(
        ((await image.getAttribute('src')) ?? '').replace(/^data:image\/svg\+xml;base64,/, ''),
        'base64',
      ).toString('utf8');
      expect(svg).toContain('YouTube');
      expect(svg).toContain(chartNumber(youtube));
      await shot(card, 'chart');
      expect(problems).toEqual([]);
    });
  },
);
