/**
 * The playground in a real headless Chromium (the system one; never downloaded), driven by playwright-core
 * against the fake Bot: commands, cards, clicks with confirmation, forms with inline errors, live updates
 * pushed by the "outbox", threads, selects, channels and the act-as switch. Screenshots land in
 * `test-output/playground/` for a human look.
 *
 * Then the demo itself (`startApp` as `npm start` runs it: embedded simulator, real core, poller) with its two
 * channels: one living card per video, shown in #general and #review, a pick in one seen in both.
 * Its screenshots land in `test-output/playground/` too; `DOC_SCREENSHOTS=1` also writes them over
 * `docs/screenshots/playground-living-card-*.png` (the README's), so a plain test run leaves docs alone.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Card } from '../../src/core/text/cards.js';
import { md } from '../../src/core/text/text.js';
import { type RunningApp, startApp } from '../../src/main.js';
import { CHROMIUM, collectPageProblems, launchChromium } from '../support/browser.js';
import { cardText } from '../support/card-text.js';
import { startImageServer, startPlayground, videoCard } from './fake-bot.js';

const SHOTS = 'test-output/playground';
const DOC_SHOTS = 'docs/screenshots';

describe.skipIf(!existsSync(CHROMIUM))('playground in a browser', () => {
  let pg: Awaited<ReturnType<typeof startPlayground>>;
  let images: Awaited<ReturnType<typeof startImageServer>>;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    pg = await startPlayground();
    images = await startImageServer();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    // Any script error or CSP violation fails the run.
    collectPageProblems(page, problems);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await pg?.close();
    await images?.close();
  });

  const composer = () => page.getByTestId('composer-input');
  const messages = () => page.getByTestId('messages').locator(':scope > [data-testid="message"]');
  const send = async (text: string) => {
    await composer().fill(text);
    await composer().press('Enter');
  };
  /** The message whose own card (not a thread reply's) has this title. */
  const cardTitled = (title: string) =>
    page.locator('[data-testid="message"]', {
      has: page.locator(':scope > .msg-main > .msg-body [data-testid="card-title"]', { hasText: title }),
    });

  it('runs the whole fake flow', { timeout: 120_000 }, async () => {
    await page.goto(`${pg.url}/?user=alice`);
    await expect.poll(() => page.getByTestId('connection').getAttribute('data-state')).toBe('live');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('composer-input');
    await page.screenshot({ path: `${SHOTS}/01-empty.png` });

    // A command: the echo and the ephemeral reply, marked private.
    await send('/reel help');
    await cardTitled('reelbot help').waitFor();
    await expect.poll(() => composer().inputValue()).toBe('');
    expect(await cardTitled('reelbot help').getAttribute('data-ephemeral')).toBe('true');
    expect(await cardTitled('reelbot help').getByTestId('private-note').textContent()).toBe(
      'Only visible to you',
    );
    expect(await messages().first().textContent()).toContain('/reel help');

    // The outbox posts a live card and edits it: the page follows over SSE.
    const conversation = pg.adapter.conversation();
    const card = await pg.adapter.sender.post(conversation, videoCard(10), { dedupeId: 'outbox:1' });
    const cardId = card.split(':')[3] as string;
    const live = page.locator(`[data-message-id="${cardId}"]`);
    const liveCard = live.locator(':scope > .msg-main > .msg-body > [data-testid="card"]');
    await live.waitFor();
    expect(await liveCard.getByTestId('card-progress').getAttribute('value')).toBe('10');
    await pg.adapter.sender.update(card, videoCard(60));
    await expect.poll(() => liveCard.getByTestId('card-progress').getAttribute('value')).toBe('60');
    expect(await liveCard.getAttribute('data-tone')).toBe('progress');
    await page.screenshot({ path: `${SHOTS}/02-progress.png` });

    // A milestone reply threads under the card; the thread collapses and expands.
    await pg.adapter.sender.post(
      conversation,
      { title: md`Generation finished`, tone: 'success', text: md`Pick a thumbnail.` },
      {
        dedupeId: 'outbox:2',
        threadOf: card,
      },
    );
    const thread = live.getByTestId('thread');
    await thread.getByTestId('thread-replies').locator('[data-testid="message"]').waitFor();
    expect(await thread.getByTestId('thread-toggle').textContent()).toBe('1 reply');
    await pg.adapter.sender.update(card, videoCard(100, images.url));
    await expect.poll(() => liveCard.getAttribute('data-tone')).toBe('success');
    // The edit swapped the card but kept the thread.
    expect(await thread.getByTestId('thread-replies').locator('[data-testid="message"]').count()).toBe(1);
    await liveCard
      .getByTestId('card-image')
      .first()
      .evaluate((img: HTMLImageElement) =>
        img.complete ? undefined : new Promise((resolve) => img.addEventListener('load', resolve)),
      );
    expect(
      await liveCard
        .getByTestId('card-image')
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBe(180);
    expect(await liveCard.getByTestId('card-image').first().getAttribute('alt')).toBe('Thumbnail option 1');
    await page.getByTestId('messages').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.screenshot({ path: `${SHOTS}/03-completed-card-thread.png` });
    await thread.getByTestId('thread-toggle').click();
    expect(await thread.getByTestId('thread-toggle').getAttribute('aria-expanded')).toBe('false');
    expect(await thread.getByTestId('thread-replies').isHidden()).toBe(true);
    await thread.getByTestId('thread-toggle').press('Enter');
    expect(await thread.getByTestId('thread-replies').isVisible()).toBe(true);

    // "Use this" on a thumbnail section: an ephemeral reply.
    await liveCard.getByTestId('card-section').nth(1).getByRole('button', { name: 'Use this' }).click();
    await cardTitled('Thumbnail set').waitFor();
    expect(await cardTitled('Thumbnail set').textContent()).toContain('Using vid_123:t2.');

    // A click: the core answers `update`, the card is replaced where it is.
    await liveCard.getByRole('button', { name: 'Render' }).click();
    await expect.poll(() => liveCard.textContent()).toContain('Rendering, started by Alice');
    expect(pg.bot.calls.at(-1)).toMatchObject({ kind: 'action', req: { message: card } });

    // A button with a confirmation: "Keep it" does nothing, "Delete" runs it.
    const actions = pg.bot.calls.length;
    await liveCard.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByTestId('confirm-dialog');
    await confirm.waitFor();
    expect(await confirm.locator('#confirm-title').textContent()).toBe('Delete this video?');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'confirm-deny',
    );
    await page.screenshot({ path: `${SHOTS}/04-confirm.png` });
    await page.getByTestId('confirm-deny').click();
    await confirm.waitFor({ state: 'hidden' });
    expect(pg.bot.calls.length).toBe(actions);
    await liveCard.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('confirm-accept').click();
    await cardTitled('Deleted').waitFor();
    expect(await cardTitled('Deleted').getAttribute('data-ephemeral')).toBeNull();

    // A form: inline errors from `form-errors`, then a channel message.
    await send('/reel create');
    const dialog = page.getByTestId('form-dialog');
    await dialog.getByTestId('form').waitFor();
    expect(await dialog.getByTestId('form-title').textContent()).toBe('Create a video');
    // The form's warning, announced and set apart in the warning tone above the inputs.
    const alert = dialog.getByRole('alert').filter({ hasText: 'Each video is charged' });
    expect(await alert.textContent()).toBe('Warning Each video is charged 50 credits.');
    expect(await alert.evaluate((e) => getComputedStyle(e).borderLeftColor)).toBe('rgb(236, 178, 46)');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('name');
    await dialog.getByLabel('Name').fill('Spring launch');
    await dialog.getByLabel('Script').fill('Too short');
    await dialog.getByTestId('form-submit').click();
    const scriptError = dialog.locator('[data-testid="form-error"][data-input-id="script"]');
    await scriptError.waitFor();
    expect(await scriptError.textContent()).toBe('Write at least 10 characters.');
    expect(await dialog.getByLabel('Script').getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: `${SHOTS}/05-form-errors.png` });
    await dialog.getByLabel('Script').fill('Spring is here: three new colours, one great price.');
    await dialog.getByLabel('Voice').selectOption('atlas');
    // A select of several choices: what is picked goes to the core comma-separated.
    expect(await dialog.getByLabel('Post to').inputValue()).toBe('youtube');
    await dialog.getByLabel('Post to').selectOption(['youtube', 'instagram']);
    await dialog.getByTestId('form-submit').click();
    await dialog.waitFor({ state: 'hidden' });
    await cardTitled('Spring launch').waitFor();
    expect(pg.bot.calls.at(-1)?.input).toMatchObject({
      formId: 'create',
      values: { name: 'Spring launch', voice: 'atlas', platforms: 'youtube,instagram' },
    });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('composer-input');

    // A form opened from a card: its `update` replaces that card.
    await liveCard.getByRole('button', { name: 'Schedule' }).click();
    await dialog.getByTestId('form').waitFor();
    await dialog.getByLabel('When').fill('tomorrow 9am');
    await dialog.getByLabel('When').press('Enter');
    await expect.poll(() => liveCard.textContent()).toContain('Scheduled for tomorrow 9am.');

    // A select: the choice goes to the core.
    await send('pick');
    await cardTitled('Pick a platform').waitFor();
    const pickerId = await cardTitled('Pick a platform').getAttribute('data-message-id');
    const picker = page.locator(`[data-message-id="${pickerId}"]`);
    await picker.getByTestId('card-select').selectOption('tiktok');
    await expect.poll(() => picker.getByTestId('card-title').textContent()).toBe('Platform: tiktok');

    // Messages for another channel mark it unread; opening it shows them.
    await pg.adapter.sender.post(
      pg.adapter.conversation('launches'),
      { title: md`Launch calendar`, tone: 'info' },
      {
        dedupeId: 'outbox:3',
      },
    );
    const launches = page.locator('[data-testid="channel-link"][data-channel="launches"]');
    await launches.locator('.unread-dot').waitFor();
    await page.screenshot({ path: `${SHOTS}/06-alice-channel.png` });
    await launches.click();
    await cardTitled('Launch calendar').waitFor();
    expect(await page.getByTestId('channel-name').textContent()).toBe('#launches');
    expect(await launches.locator('.unread-dot').isHidden()).toBe(true);
    await page.locator('[data-testid="channel-link"][data-channel="general"]').click();
    await cardTitled('Spring launch').waitFor();

    // Acting as Bob: Alice's private messages are gone, the channel's stay.
    await page.getByTestId('user-switch').selectOption('bob');
    await expect.poll(() => page.locator('[data-ephemeral="true"]').count()).toBe(0);
    await cardTitled('Spring launch').waitFor();
    expect(page.url()).toContain('user=bob');
    await send('whoami');
    await cardTitled('You are Bob').waitFor();
    await page.screenshot({ path: `${SHOTS}/07-bob.png`, fullPage: false });

    // A reload keeps the person and the history.
    await page.reload();
    await cardTitled('You are Bob').waitFor();
    expect(await page.getByTestId('user-switch').inputValue()).toBe('bob');

    expect(problems).toEqual([]);

    // A server error shows in the composer, not as a broken page (the browser logs the 500 itself).
    pg.bot.failNext = true;
    await send('help');
    await page.getByTestId('composer-error').waitFor();
    expect(await page.getByTestId('composer-error').textContent()).toContain('The playground server failed');
    expect(problems.filter((p) => !p.includes('500 (Internal Server Error)'))).toEqual([]);
  });

  it('shows three thumbnails as a gallery and the rendered video inline', { timeout: 60_000 }, async () => {
    problems.length = 0; // the flow above ends on a deliberate server error
    await page.goto(`${pg.url}/?user=alice`);
    await expect.poll(() => page.getByTestId('connection').getAttribute('data-state')).toBe('live');
    const card: Card = {
      ...videoCard(100, images.url),
      title: md`Gallery teaser`,
      sections: [1, 2, 3].map((n) => ({
        text: md`**Option ${n}**${n === 2 ? md` ⭐ AI pick, in use` : md``}\n“Hook number ${n}”\ngrade ${cardText(String('ABC'[n - 1]))} · score ${95 - n * 7}`,
        image: { url: `${images.url}?n=${n}`, alt: `Thumbnail option ${n}` },
        controls: [
          {
            kind: 'button',
            action: 'thumbnail.pick',
            value: `vid_123:t${n}`,
            label: 'Use this',
            style: 'primary',
          },
        ],
      })),
      video: {
        url: `${images.url}?n=video.mp4`,
        poster: `${images.url}?n=2`,
        alt: 'Gallery teaser, rendered',
      },
    };
    const address = await pg.adapter.sender.post(pg.adapter.conversation(), card, {
      dedupeId: 'outbox:gallery',
    });
    const message = page.locator(`[data-message-id="${address.split(':')[3]}"]`);
    await message.waitFor();
    const gallery = message.getByTestId('card-gallery');
    const items = gallery.locator('[data-gallery-item]');
    expect(await items.count()).toBe(3);
    // One row: the three thumbnails side by side, each with its hook, grade/score and "Use this" under it.
    const boxes = await Promise.all(
      [0, 1, 2].map((i) => items.nth(i).getByTestId('card-image').boundingBox()),
    );
    expect(new Set(boxes.map((b) => Math.round(b?.y ?? -1))).size).toBe(1);
    expect((boxes[0]?.x ?? 0) < (boxes[1]?.x ?? 0) && (boxes[1]?.x ?? 0) < (boxes[2]?.x ?? 0)).toBe(true);
    for (const [i, item] of (await items.all()).entries()) {
      expect(await item.innerText()).toContain(`Hook number ${i + 1}`);
      expect(await item.innerText()).toMatch(/grade [ABC] · score \d+/);
      const image = await item.getByTestId('card-image').boundingBox();
      const button = await item.getByRole('button', { name: 'Use this' }).boundingBox();
      expect((button?.y ?? 0) > (image?.y ?? 0) + (image?.height ?? 0) - 1).toBe(true);
    }
    await Promise.all(
      (await items.getByTestId('card-image').all()).map((img) =>
        img.evaluate((el: HTMLImageElement) =>
          el.complete ? undefined : new Promise((resolve) => el.addEventListener('load', resolve)),
        ),
      ),
    );
    // The rendered video plays in place, its poster showing until then, with the download link under it.
    const player = message.getByTestId('card-video-player');
    expect(await player.evaluate((v: HTMLVideoElement) => v.tagName)).toBe('VIDEO');
    expect(await player.getAttribute('controls')).not.toBeNull();
    expect(await player.getAttribute('poster')).toBe(`${images.url}?n=2`);
    expect(await message.getByTestId('card-video-download').getAttribute('href')).toBe(
      `${images.url}?n=video.mp4`,
    );
    // "Use this" under a gallery item still reaches the core with its own value.
    const answers = await cardTitled('Thumbnail set').count();
    await items.nth(2).getByRole('button', { name: 'Use this' }).click();
    await expect.poll(() => cardTitled('Thumbnail set').count()).toBe(answers + 1);
    expect(await cardTitled('Thumbnail set').last().textContent()).toContain('Using vid_123:t3.');
    // Tall enough for the whole card under the channel header.
    await page.setViewportSize({ width: 1280, height: 1500 });
    await message.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await message.screenshot({ path: 'test-output/playground-gallery.png' });
    await page.setViewportSize({ width: 1280, height: 860 });
    expect(problems).toEqual([]);
  });

  it('follows a card growing at the bottom, unless the member scrolled up', {
    timeout: 60_000,
  }, async () => {
    problems.length = 0;
    await page.goto(`${pg.url}/?user=alice`);
    await expect.poll(() => page.getByTestId('connection').getAttribute('data-state')).toBe('live');
    const list = page.getByTestId('messages');
    const gap = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    const frames = () =>
      page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const conversation = pg.adapter.conversation();
    for (let i = 0; i < 6; i++) {
      await pg.adapter.sender.post(
        conversation,
        {
          title: md`Note ${i}`,
          text: md`One line.
Another line.
A third line.`,
        },
        { dedupeId: `follow:${i}` },
      );
    }
    const address = await pg.adapter.sender.post(conversation, videoCard(10), { dedupeId: 'follow:card' });
    const message = page.locator(`[data-message-id="${address.split(':')[3]}"]`);
    const card = message.locator(':scope > .msg-main > .msg-body > [data-testid="card"]');
    await message.waitFor();
    await expect.poll(gap).toBeLessThan(2);

    // The card grows (thumbnails, pictures loading after it): the list keeps its end in view.
    await pg.adapter.sender.update(address, videoCard(100, images.url));
    await expect.poll(() => card.getAttribute('data-tone')).toBe('success');
    await expect.poll(gap).toBeLessThan(2);
    expect(await card.getByRole('button', { name: 'Use this' }).last().isVisible()).toBe(true);
    const inView = await card.getByRole('button', { name: 'Use this' }).last().boundingBox();
    const listBox = await list.boundingBox();
    expect((inView?.y ?? 0) + (inView?.height ?? 0)).toBeLessThanOrEqual(
      (listBox?.y ?? 0) + (listBox?.height ?? 0),
    );

    // Scrolled up to read: growth below leaves the member where they are.
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await frames();
    await pg.adapter.sender.update(address, {
      ...videoCard(100, images.url),
      text: cardText('Rendered.\n'.repeat(12)),
    });
    await expect.poll(() => card.textContent()).toContain('Rendered.');
    await frames();
    expect(await list.evaluate((el) => el.scrollTop)).toBe(0);

    // Back at the bottom, it follows again.
    await list.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await frames();
    await pg.adapter.sender.update(address, {
      ...videoCard(100, images.url),
      text: cardText('Posted.\n'.repeat(20)),
    });
    await expect.poll(() => card.textContent()).toContain('Posted.');
    await expect.poll(gap).toBeLessThan(2);
    expect(problems).toEqual([]);
  });

  it('looks right on a narrow screen', { timeout: 30_000 }, async () => {
    const phone = await browser.newPage({ viewport: { width: 420, height: 860 } });
    await phone.goto(`${pg.url}/?user=alice`);
    await phone.getByTestId('composer-input').waitFor();
    await phone.screenshot({ path: `${SHOTS}/08-narrow.png` });
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await phone.close();
  });
});

describe.skipIf(!existsSync(CHROMIUM))('the demo in a browser: one living card in two channels', () => {
  let app: RunningApp;
  let dataDir: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    if (process.env.DOC_SCREENSHOTS === '1') mkdirSync(DOC_SHOTS, { recursive: true });
    dataDir = mkdtempSync(join(tmpdir(), 'reelbot-living-card-'));
    // The demo's defaults (no chat platform configured: the playground with its default channels), on a free
    // port, with the simulator sped up so a generation takes seconds.
    app = await startApp({
      REELBOT_DATA_DIR: dataDir,
      PORT: '0',
      SIM_SPEED: '60',
      LOG_LEVEL: 'warn',
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    collectPageProblems(page, problems);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const send = async (text: string) => {
    await page.getByTestId('composer-input').fill(text);
    await page.getByTestId('composer-input').press('Enter');
  };
  const channelLink = (name: string) => page.locator(`[data-testid="channel-link"][data-channel="${name}"]`);
  const openChannel = async (name: string) => {
    await channelLink(name).click();
    await expect.poll(() => page.getByTestId('channel-name').textContent()).toBe(`#${name}`);
  };
  /**
   * The channel's live card of the video: a top-level message seen by everyone (not a thread reply, nor the
   * private answer to `status`), titled with the video's name and offering Render.
   */
  const liveCards = () =>
    page
      .getByTestId('messages')
      .locator(':scope > [data-testid="message"]:not([data-ephemeral])')
      .filter({
        has: page.locator(':scope > .msg-main > .msg-body [data-testid="card-title"]', {
          hasText: /^Phone tips$/,
        }),
      })
      .filter({ has: page.getByRole('button', { name: 'Render' }) });
  const liveCard = () => liveCards().locator(':scope > .msg-main > .msg-body > [data-testid="card"]');
  /** What a card shows, without the time stamps that localize differently per render. */
  const cardText = async () => (await liveCard().innerText()).replace(/\s+/g, ' ').trim();
  const shot = async (name: string) => {
    await page.getByTestId('messages').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    // Once an edited card's highlight has faded, and with no hover on a card.
    await page.mouse.move(0, 0);
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.screenshot({ path: `${SHOTS}/living-card-${name}.png` });
    if (process.env.DOC_SCREENSHOTS === '1') {
      await page.screenshot({ path: `${DOC_SHOTS}/playground-living-card-${name}.png` });
    }
  };

  it('shows the same video card in #general and #review, a pick in one seen in both', {
    timeout: 180_000,
  }, async () => {
    await page.goto(`${app.url}/?user=alice`);
    await expect.poll(() => page.getByTestId('connection').getAttribute('data-state')).toBe('live');
    // The sidebar lists both channels; the page opens on the first.
    expect(await page.getByTestId('channel-link').allTextContents()).toEqual(['# general', '# review']);
    expect(await page.getByTestId('channel-name').textContent()).toBe('#general');

    // #general: create a video, confirm the cost, wait for the thumbnails.
    await send('/reel create --name "Phone tips" Five tips for filming on a phone, in sixty seconds flat.');
    const confirm = page
      .getByTestId('card-button')
      .filter({ hasText: /^Create/ })
      .last();
    await confirm.waitFor({ timeout: 15_000 });
    await confirm.click();
    await liveCard().getByRole('button', { name: 'Use this' }).first().waitFor({ timeout: 60_000 });
    expect(await liveCards().count()).toBe(1);

    // #review: empty of the video until `/reel status last` brings its live card here.
    await openChannel('review');
    expect(await liveCards().count()).toBe(0);
    await send('/reel status last');
    await liveCard().getByRole('button', { name: 'Use this' }).first().waitFor({ timeout: 15_000 });
    expect(await liveCards().count()).toBe(1);
    // The video's thumbnails, as in #general: the AI pick in use, none picked by a person yet.
    expect(await liveCard().getByTestId('card-image').count()).toBeGreaterThanOrEqual(1);
    expect(await cardText()).not.toMatch(/picked by/);

    // A pick in #review: this card shows it at once, #general's through the outbox while #general is not open
    // (its sidebar entry marked: its card changed).
    const pick = liveCard().getByRole('button', { name: 'Use this' }).last();
    await pick.click();
    await expect.poll(cardText, { timeout: 15_000 }).toMatch(/picked by Alice/);
    const inReview = await cardText();
    await expect
      .poll(() => channelLink('general').locator('.unread-dot').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await shot('review');

    // #general: the same card, the same state (each names where else it is live).
    await openChannel('general');
    await expect.poll(cardText, { timeout: 15_000 }).toMatch(/picked by Alice/);
    expect(await liveCards().count()).toBe(1);
    expect(await channelLink('general').locator('.unread-dot').isHidden()).toBe(true);
    const inGeneral = await cardText();
    const sameState = (text: string) => text.replace(/also live in \S+/, 'also live in …');
    expect(sameState(inGeneral)).toBe(sameState(inReview));
    expect(inGeneral).toMatch(/also live in \S*review/);
    expect(inReview).toMatch(/also live in \S*general/);
    await shot('general');

    expect(problems).toEqual([]);
  });

  it('/reel home shows the dashboard as a private panel of cards', { timeout: 60_000 }, async () => {
    await page.goto(`${app.url}/?user=alice`);
    await expect.poll(() => page.getByTestId('connection').getAttribute('data-state')).toBe('live');
    await send('/reel home');
    const panel = page.getByTestId('card-panel').last();
    await panel.waitFor({ timeout: 15_000 });
    const message = page.locator('[data-testid="message"]', { has: panel });
    expect(await message.getAttribute('data-ephemeral')).toBe('true');
    const titles = await panel.getByTestId('card-title').allTextContents();
    expect(titles[0]).toMatch(/^You act as/);
    expect(titles).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Credits: \d+/),
        'Recent videos',
        expect.stringMatching(/Calendar/),
        'Channel subscriptions',
      ]),
    );
    expect(await panel.locator('.panel-item').count()).toBe(titles.length);
    // The video made above is on it, with its buttons.
    expect(await panel.innerText()).toContain('Phone tips');
    await page.mouse.move(0, 0);
    await message.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-output/playground-dashboard.png', fullPage: true });
    await message.screenshot({ path: `${SHOTS}/dashboard-panel.png` });
    // Narrow: the panel folds into one column, nothing overflows the page.
    await page.setViewportSize({ width: 420, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)).toBe(false);
    await message.screenshot({ path: `${SHOTS}/dashboard-narrow.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
  });
});

/**
 * The demo's live card as a newcomer sees it, with `npm start`'s defaults (the default model, the
 * simulator's default speed) on both simulator profiles: the bar moves several times before the thumbnails,
 * the card's headline says where the video is after each step, and the rendered clip plays in the card.
 * Screenshots land in `test-output/playground/demo-<profile>-*.png`.
 */
describe.skipIf(!existsSync(CHROMIUM)).each(['spec', 'real'] as const)(
  'the demo in a browser on the %s profile: the live card follows the video',
  (profile) => {
    let app: RunningApp;
    let dataDir: string;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      dataDir = mkdtempSync(join(tmpdir(), 'reelbot-demo-card-'));
      // `npm start` as it is, on a free port: no SIM_SPEED, so the demo's default pace.
      app = await startApp({
        REELBOT_DATA_DIR: dataDir,
        PORT: '0',
        SIM_PROFILE: profile,
        LOG_LEVEL: 'warn',
      });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      collectPageProblems(page, problems);
    }, 60_000);

    afterAll(async () => {
      await browser?.close();
      await app?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const send = async (text: string) => {
      await page.getByTestId('composer-input').fill(text);
      await page.getByTestId('composer-input').press('Enter');
    };
    /** The channel's live card of the video (a top-level message, not a thread reply). */
    const liveCard = () =>
      page
        .getByTestId('messages')
        .locator(':scope > [data-testid="message"]:not([data-ephemeral])')
        .locator(':scope > .msg-main > .msg-body > [data-testid="card"]')
        .filter({ has: page.getByTestId('card-title').getByText('Phone tips', { exact: true }) });
    const shot = async (name: string) => {
      await page.mouse.move(0, 0);
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      // Tall enough for the whole card; the page, not the card, since an edit replaces the card's element.
      await page.setViewportSize({ width: 1280, height: 1700 });
      await liveCard().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/demo-${profile}-${name}.png` });
      await page.setViewportSize({ width: 1280, height: 900 });
    };

    it('moves the bar several times before the thumbnails, for the default model', {
      timeout: 120_000,
    }, async () => {
      await page.goto(`${app.url}/?user=alice`);
      await expect.poll(() => page.getByTestId('connection').getAttribute('data-state')).toBe('live');
      // Every value the card's bar shows, in order, until the thumbnails come.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { seenProgress: string[] }).seenProgress = seen;
        const record = () => {
          for (const bar of Array.from(document.querySelectorAll('[data-testid="card-progress"]'))) {
            const value = bar.getAttribute('value') ?? '';
            if (seen.at(-1) !== value) seen.push(value);
          }
        };
        new MutationObserver(record).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
        });
      });

      await send('/reel create --name "Phone tips" Five tips for filming on a phone, in sixty seconds flat.');
      const confirm = page
        .getByTestId('card-button')
        .filter({ hasText: /^Create/ })
        .last();
      await confirm.waitFor({ timeout: 15_000 });
      await confirm.click();
      await liveCard().getByTestId('card-progress').waitFor({ timeout: 15_000 });
      await shot('1-generating');
      await liveCard().getByRole('button', { name: 'Use this' }).first().waitFor({ timeout: 60_000 });
      const seen = await page.evaluate(() => (window as unknown as { seenProgress: string[] }).seenProgress);
      // The default model takes 90 s of the simulator's time: a look every 10–30 s of it shows the bar move.
      expect(new Set(seen).size, `progress seen: ${seen.join(', ')}`).toBeGreaterThanOrEqual(3);
      expect(seen.map(Number)).toEqual([...seen.map(Number)].sort((a, b) => a - b));
      expect(problems).toEqual([]);
    });

    it('says where the video is after each step, with one download link and a clip that plays', {
      timeout: 120_000,
    }, async () => {
      const headline = async () =>
        ((await liveCard().locator('.card-text').first().textContent()) ?? '').replace(/\s+/g, ' ');
      // Generated: the thumbnails, then render or schedule.
      expect(await headline()).toMatch(/^Generated\. .*Then render or schedule\.$/);
      await shot('2-generated');

      await liveCard().getByRole('button', { name: 'Render', exact: true }).click();
      await expect.poll(headline, { timeout: 15_000 }).toMatch(/^Generated\. Rendering the MP4…/);
      const player = liveCard().getByTestId('card-video-player');
      await player.waitFor({ timeout: 30_000 });
      // Rendered: the headline moves on, no longer "Generated … Then render or schedule".
      expect(await headline()).toMatch(
        /^Rendered\. .*Watch it here or download the MP4, then Schedule or Publish now\.$/,
      );
      // One way to the file: the player and its one download link (no Render field, no second button).
      const src = await player.getAttribute('src');
      expect(src).toMatch(/\/media\/render\/[0-9a-f]+\.mp4$/);
      expect(await liveCard().locator(`a[href="${src}"]`).count()).toBe(1);
      expect(
        await liveCard()
          .getByRole('link', { name: /Download MP4/ })
          .count(),
      ).toBe(1);
      // The simulator's clip plays: metadata read, frames decoded, time moving.
      const played = await player.evaluate(async (video: HTMLVideoElement) => {
        video.muted = true;
        await video.play();
        await new Promise<void>((resolve) => {
          const check = () => (video.currentTime > 0.2 ? resolve() : requestAnimationFrame(check));
          check();
        });
        video.pause();
        return { readyState: video.readyState, duration: video.duration, width: video.videoWidth };
      });
      expect(played.readyState).toBeGreaterThanOrEqual(2);
      expect(played.duration).toBeGreaterThan(1);
      expect(played.width).toBeGreaterThan(0);
      await shot('3-rendered');

      // Scheduled: the form asks for the YouTube title first, then the card says when and where.
      await send('/reel schedule last youtube tomorrow 9am');
      const dialog = page.getByTestId('form-dialog');
      await dialog.waitFor({ state: 'visible', timeout: 15_000 });
      await dialog.getByLabel(/title/i).first().fill('Five phone filming tips');
      await dialog.getByTestId('form-submit').click();
      await expect.poll(headline, { timeout: 15_000 }).toMatch(/^Scheduled for .+ on YouTube\. /);
      expect(await headline()).toContain('It posts then; nothing else to do.');
      await shot('4-scheduled');
      expect(problems).toEqual([]);
    });
  },
);
