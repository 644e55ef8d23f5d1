/**
 * The main job's embedded default, end to end in a real browser: `startApp` with no configuration (demo
 * mode: embedded simulator, SQLite in a temp dir, poller, playground), driven by headless Chromium.
 * create → progress → completed → "Use this" → Render → schedule for tomorrow → calendar.
 * On both simulator profiles (`SIM_PROFILE`, as an operator sets it): `real` serves the real product's shapes.
 * Screenshots go to test-output/playground-flow/<profile>/.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/main.js';
import { launchChromium } from '../support/browser.js';

const SHOTS = 'test-output/playground-flow';

// The two profiles run side by side: the flow mostly waits on the poller's real-time looks, so this halves
// the file's wall time at little CPU cost.
describe.concurrent.each(['spec', 'real'] as const)(
  'playground on the %s profile: the whole flow in a browser, from npm start state',
  (profile) => {
    const shots = `${SHOTS}/${profile}`;
    let app: RunningApp;
    let browser: Browser;
    let page: Page;
    let dataDir: string;

    beforeAll(async () => {
      mkdirSync(shots, { recursive: true });
      dataDir = mkdtempSync(join(tmpdir(), 'reelbot-flow-'));
      // Exactly the demo defaults, on a free port and with the simulator sped up so a generation takes seconds.
      app = await startApp({
        REELBOT_DATA_DIR: dataDir,
        PORT: '0',
        SIM_SPEED: '60',
        SIM_PROFILE: profile,
        LOG_LEVEL: 'warn',
      });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await app?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    const send = async (text: string) => {
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-input').press('Enter');
    };
    const shot = (name: string) => page.screenshot({ path: `${shots}/${name}.png`, fullPage: false });
    /** The video's status card: the newest card with the video's name as its title. */
    const videoCard = () =>
      page
        .getByTestId('card')
        .filter({ has: page.getByTestId('card-title').getByText('Phone tips', { exact: true }) })
        .last();

    it('runs create → thumbnails → pick → render → schedule → calendar', async () => {
      await page.goto(app.url);
      await expect(page.getByTestId('composer-input')).toBeDefined();
      await shot('01-empty');

      await send('/reel create --name "Phone tips" Five tips for filming on a phone, in sixty seconds flat.');
      // The cost confirmation (model, credits, balance) comes first; nothing is charged before the click.
      const confirm = page
        .getByTestId('card-button')
        .filter({ hasText: /^Create/ })
        .last();
      await confirm.waitFor({ timeout: 15_000 });
      await expect(
        page
          .getByText(/20 credits/)
          .last()
          .isVisible(),
      ).resolves.toBe(true);
      await shot('02-confirm-cost');
      await confirm.click();

      // The live status card appears and progresses to completed with three thumbnails.
      await videoCard().waitFor({ timeout: 15_000 });
      await shot('03-generating');
      const useThis = videoCard().getByTestId('card-button').filter({ hasText: 'Use this' });
      await useThis.first().waitFor({ timeout: 60_000 });
      expect(await videoCard().getByTestId('card-image').count()).toBeGreaterThanOrEqual(1);
      await shot('04-thumbnails');

      await useThis.last().click();
      await videoCard()
        .getByText(/picked by Alice/)
        .waitFor({ timeout: 15_000 });
      await shot('05-picked');

      await videoCard()
        .getByTestId('card-button')
        .filter({ hasText: /^Render$/ })
        .click();
      await videoCard()
        .getByText(/Download MP4/)
        .first()
        .waitFor({ timeout: 60_000 });
      await shot('06-rendered');

      // Scheduling needs the YouTube title first: a form opens, then the schedule goes through.
      await send('/reel schedule last youtube tomorrow 9am');
      const dialog = page.getByTestId('form-dialog');
      await dialog.waitFor({ state: 'visible', timeout: 15_000 });
      await shot('07-metadata-form');
      await dialog.getByLabel(/title/i).first().fill('Five phone filming tips');
      await dialog.getByTestId('form-submit').click();
      await page.getByText(/UTC/).last().waitFor({ timeout: 15_000 });
      await shot('08-scheduled');

      await send('/reel calendar');
      const calendar = page
        .getByTestId('card')
        .filter({ hasText: /Phone tips/ })
        .filter({ hasText: /youtube/i })
        .last();
      await calendar.waitFor({ timeout: 15_000 });
      expect(await calendar.innerText()).toMatch(/scheduled/i);
      await shot('09-calendar');
    }, 240_000);
  },
);
