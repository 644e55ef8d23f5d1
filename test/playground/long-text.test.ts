/**
 * Full-length text in from the playground, in a real headless Chromium against the app as
 * `npm start` runs it (real core, poller, store) and a simulator on 127.0.0.1, on both profiles: the create
 * form's file input is read in the browser and its text submitted; an 8,000-character script reaches the
 * simulator whole (read back through its API), and a file of another type or too long is refused on its input
 * with nothing sent.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from '../../src/main.js';
import {
  demoTeam,
  generateApiKey,
  type RunningSimulator,
  startSimulator,
} from '../../src/simulator/index.js';
import { CHROMIUM, collectPageProblems, launchChromium } from '../support/browser.js';

function scriptOf(length: number): string {
  let text = '';
  for (let i = 1; text.length < length; i++) text += `P${i}: octopuses taste with their arms. `;
  return text.slice(0, length);
}

describe.skipIf(!existsSync(CHROMIUM)).each(['spec', 'real'] as const)(
  'playground on the %s profile',
  (profile) => {
    let sim: RunningSimulator;
    let app: RunningApp;
    let browser: Browser;
    let page: Page;
    let dataDir: string;
    const key = generateApiKey();
    const problems: string[] = [];

    beforeEach(async () => {
      sim = await startSimulator({ port: 0, speed: 60, profile, teams: [demoTeam(key)] });
      dataDir = mkdtempSync(join(tmpdir(), 'reelbot-long-text-'));
      app = await startApp({
        REELBOT_DATA_DIR: dataDir,
        PORT: '0',
        LOG_LEVEL: 'warn',
        VIDEO_API_URL: sim.url,
        VIDEO_API_KEY: key,
      });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      collectPageProblems(page, problems);
      await page.goto(`${app.url}/?user=alice`);
      await expect.poll(() => page.getByTestId('connection').getAttribute('data-state')).toBe('live');
    }, 60_000);

    afterEach(async () => {
      await browser?.close();
      await app?.stop();
      await sim?.close();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const openCreateForm = async () => {
      await page.getByTestId('composer-input').fill('/reel create');
      await page.getByTestId('composer-input').press('Enter');
      const dialog = page.getByTestId('form-dialog');
      await dialog.getByTestId('form').waitFor();
      return dialog;
    };
    const fileInput = (dialog: ReturnType<Page['getByTestId']>) =>
      dialog.locator('input[type="file"][data-input-id="script_file"]');
    const videos = async () => {
      const res = await fetch(`${sim.url}/videos`, { headers: { authorization: `Bearer ${key}` } });
      return ((await res.json()) as { data: { id: string }[] }).data;
    };

    it('an 8,000-character script uploaded as a file reaches the simulator whole', {
      timeout: 90_000,
    }, async () => {
      const dialog = await openCreateForm();
      expect(await fileInput(dialog).getAttribute('accept')).toBe('.txt,.md');
      const script = scriptOf(8_000);
      await fileInput(dialog).setInputFiles({
        name: 'octopus.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(script),
      });
      await dialog.getByTestId('form-submit').click();
      const create = page.getByRole('button', { name: /^Create \(/ }).last();
      await create.waitFor();
      expect(await page.getByTestId('messages').innerText()).toContain('Script (8000 characters)');
      await create.click();
      await expect.poll(async () => (await videos()).length, { timeout: 20_000 }).toBe(1);
      const [video] = await videos();
      const res = await fetch(`${sim.url}/videos/${video?.id}`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const stored = ((await res.json()) as { data: { script: string } }).data.script;
      expect(stored.length).toBe(8_000);
      expect(stored).toBe(script);
      expect(problems).toEqual([]);
    });

    it('refuses a file of another type or too long on its input; nothing is sent', {
      timeout: 60_000,
    }, async () => {
      const dialog = await openCreateForm();
      const error = dialog.locator('[data-testid="form-error"][data-input-id="script_file"]');
      await fileInput(dialog).setInputFiles({
        name: 'script.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.7'),
      });
      await dialog.getByTestId('form-submit').click();
      await expect
        .poll(() => error.textContent())
        .toMatch(/script\.pdf isn't a text file I can read: upload a \.txt or \.md file/);
      await fileInput(dialog).setInputFiles({
        name: 'long.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(scriptOf(12_000)),
      });
      await dialog.getByTestId('form-submit').click();
      await expect
        .poll(() => error.textContent())
        .toMatch(/long\.txt is too long \(12000 characters; the limit is 10000\)/);
      expect(await videos()).toEqual([]);
      expect(await page.getByRole('button', { name: /^Create \(/ }).count()).toBe(0);
    });
  },
);
