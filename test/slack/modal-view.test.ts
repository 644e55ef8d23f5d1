/**
 * Forms → modal views and back: inputs, Slack's limits, private_metadata within 3000 characters, submitted
 * values, inline errors only on inputs the view has; and a stale trigger never reaches `views.open`.
 */
import { randomBytes } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import {
  decodeMetadata,
  encodeMetadata,
  formToView,
  inlineErrors,
  viewValues,
} from '../../adapters/slack/modal.js';
import { createPresenter, TRIGGER_BUDGET_MS } from '../../adapters/slack/present.js';
import type { Clock, Logger } from '../../src/core/ports/index.js';
import type { Form } from '../../src/core/text/cards.js';
import { literal, md } from '../../src/core/text/text.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { TestClock } from '../support/test-clock.js';

const form: Form = {
  id: 'publish.form',
  title: 'Publish now to every platform you have',
  submitLabel: 'Publish',
  state: 'vid_1:29000000',
  intro: md`Publish **Octopus facts**.`,
  inputs: [
    {
      kind: 'text',
      id: 'caption',
      label: 'Caption',
      required: true,
      maxLength: 5000,
      minLength: 2,
      multiline: true,
      initial: 'Hi',
      hint: 'Max 5000',
    },
    {
      kind: 'select',
      id: 'privacy',
      placeholder: 'Public',
      label: 'Visibility',
      required: false,
      initial: 'unlisted',
      options: [
        { label: 'Public', value: 'public' },
        { label: 'Unlisted', value: 'unlisted', description: 'Link only' },
      ],
    },
  ],
};

describe('form → modal', () => {
  it('builds the view within Slack’s limits', () => {
    const view = formToView(
      form,
      { channel: 'C0VIDEOS', responseUrl: 'https://hooks.slack.com/x' },
      { cancel: 'Cancel' },
    );
    expect(view.callback_id).toBe('publish.form');
    expect(view.title.text.length).toBeLessThanOrEqual(24);
    expect(view.title.text.endsWith('…')).toBe(true);
    expect(view.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: 'Publish *Octopus facts*.' },
    });
    expect(view.blocks[1]).toMatchObject({
      type: 'input',
      block_id: 'caption',
      optional: false,
      hint: { text: 'Max 5000' },
      element: {
        type: 'plain_text_input',
        action_id: 'caption',
        multiline: true,
        max_length: 3000,
        min_length: 2,
        initial_value: 'Hi',
      },
    });
    // 5,000 characters take two of Slack's 3,000-character inputs, joined in order on submission.
    expect(view.blocks[2]).toMatchObject({
      type: 'input',
      block_id: 'caption.part2',
      optional: true,
      element: { type: 'plain_text_input', action_id: 'caption.part2', max_length: 2000 },
    });
    expect(view.blocks[3]).toMatchObject({
      type: 'input',
      block_id: 'privacy',
      optional: true,
      element: {
        type: 'static_select',
        initial_option: { value: 'unlisted', description: { text: 'Link only' } },
      },
    });
    expect(decodeMetadata(view.private_metadata)).toEqual({
      state: 'vid_1:29000000',
      origin: { channel: 'C0VIDEOS', responseUrl: 'https://hooks.slack.com/x' },
    });
  });

  it('keeps the form state and drops the response URL when metadata would pass 3000 characters', () => {
    const raw = encodeMetadata('s'.repeat(2900), {
      channel: 'C1',
      responseUrl: `https://hooks.slack.com/${'u'.repeat(200)}`,
    });
    expect(raw.length).toBeLessThanOrEqual(3000);
    expect(decodeMetadata(raw)).toEqual({ state: 's'.repeat(2900), origin: { channel: 'C1' } });
    expect(decodeMetadata('not json')).toBeUndefined();
    expect(decodeMetadata(JSON.stringify({ s: 1 }))).toBeUndefined();
  });

  it('shows a multiple select as a multi_static_select and reads its choices comma-separated', () => {
    const view = formToView(
      {
        ...form,
        inputs: [
          {
            kind: 'select',
            id: 'platform',
            label: 'Platforms',
            placeholder: 'Choose one or more platforms',
            required: true,
            multiple: true,
            initial: 'youtube,tiktok',
            options: ['youtube', 'tiktok', 'instagram'].map((p) => ({ label: p, value: p })),
          },
        ],
      },
      { channel: 'C1' },
      { cancel: 'Cancel' },
    );
    const block = view.blocks.find((b) => b.block_id === 'platform') as
      | { element: { type: string; initial_options: { value: string }[] } }
      | undefined;
    expect(block?.element).toMatchObject({ type: 'multi_static_select', action_id: 'platform' });
    expect(block?.element.initial_options.map((o) => o.value)).toEqual(['youtube', 'tiktok']);
    expect(
      viewValues({
        platform: { platform: { selected_options: [{ value: 'tiktok' }, { value: 'instagram' }] } },
      }),
    ).toEqual({ platform: 'tiktok,instagram' });
  });

  it('reads submitted values and places errors on known inputs only', () => {
    expect(
      viewValues({
        caption: { caption: { value: 'Hello' } },
        privacy: { privacy: { selected_option: { value: 'public' } } },
        empty: { empty: { value: null } },
      }),
    ).toEqual({ caption: 'Hello', privacy: 'public', empty: '' });
    const view = formToView(form, { channel: 'C1' }, { cancel: 'Cancel' });
    expect(inlineErrors(view, { caption: '**Too** long', account: 'No such account' })).toEqual({
      caption: 'Too long No such account',
    });
  });
});

describe('a form’s alert', () => {
  const warned: Form = {
    ...form,
    alert: { level: 'warning', text: md`Each episode is charged **20 credits**.` },
  };
  const alert = new Set(['alert'] as const);

  it('is an alert block first where the workspace takes them, else a section led by its sign', () => {
    expect(formToView(warned, { channel: 'C1' }, { cancel: 'Cancel', native: alert }).blocks[0]).toEqual({
      type: 'alert',
      level: 'warning',
      text: { type: 'mrkdwn', text: 'Each episode is charged *20 credits*.' },
    });
    const classic = formToView(warned, { channel: 'C1' }, { cancel: 'Cancel' }).blocks;
    expect(classic[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: ':warning: Each episode is charged *20 credits*.' },
    });
    expect(classic[1]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: 'Publish *Octopus facts*.' },
    });
  });

  it('is a section when its text is longer than an alert holds, never cut', () => {
    const long: Form = {
      ...form,
      alert: { level: 'error', text: md`${literal('word '.repeat(60).trim())}.` },
    };
    const first = formToView(long, { channel: 'C1' }, { cancel: 'Cancel', native: alert }).blocks[0];
    expect(first).toMatchObject({ type: 'section', text: { text: expect.stringMatching(/^:x: word/) } });
    expect(JSON.stringify(first)).toContain(`${'word '.repeat(59)}word.`);
  });
});

describe('trigger budget', () => {
  let store: SqliteStore | undefined;
  afterEach(() => store?.close());
  /** The presenter over a real store (SQLite in memory) on the test's clock: pending forms expire by it. */
  const presenterOn = (clock: Clock, logger: Logger) => {
    store = openStore({ path: ':memory:', secretKey: randomBytes(32), clock });
    return createPresenter({ logger, clock, store: store.interactions });
  };

  it('does not call views.open once the trigger is older than the budget', async () => {
    const clock = new TestClock(0);
    const opened: unknown[] = [];
    const client = {
      views: { open: async (args: unknown) => opened.push(args) },
    } as unknown as webApi.WebClient;
    const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
    const presenter = presenterOn(clock, quiet);
    const surface = { client, user: 'U1', channel: 'C1', trigger: { id: 't1', receivedAt: 0 } };
    clock.advance(100);
    expect(await presenter.openModal(form, surface)).toBe(true);
    expect(opened).toHaveLength(1);
    clock.advance(TRIGGER_BUDGET_MS - 99);
    expect(await presenter.openModal(form, surface)).toBe(false);
    expect(opened).toHaveLength(1);
  });

  it('keeps a late form behind its "Open form" button for 30 minutes of the adapter clock', async () => {
    const clock = new TestClock(0);
    const posted: { blocks?: { elements?: { value?: string }[] }[] }[] = [];
    const client = {
      views: { open: async () => ({}) },
      chat: { postEphemeral: async (message: (typeof posted)[number]) => posted.push(message) },
    } as unknown as webApi.WebClient;
    const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
    const presenter = presenterOn(clock, quiet);
    const surface = { client, user: 'U1', channel: 'C1', trigger: { id: 't1', receivedAt: 0 } };
    clock.advance(TRIGGER_BUDGET_MS + 1);
    await presenter.present({ kind: 'form', form }, surface);
    const value = posted[0]?.blocks?.flatMap((b) => b.elements ?? []).find((e) => e.value)?.value ?? '';
    expect((await presenter.pendingForm(value)).form?.id).toBe(form.id);
    clock.advance(30 * 60_000 - 1);
    expect((await presenter.pendingForm(value)).form?.id).toBe(form.id);
    clock.advance(1);
    expect((await presenter.pendingForm(value)).form).toBeUndefined();
  });

  it('finds a form offered by another replica: pending forms live in the shared store', async () => {
    const clock = new TestClock(0);
    const posted: { blocks?: { elements?: { value?: string }[] }[] }[] = [];
    const client = {
      views: { open: async () => ({}) },
      chat: { postEphemeral: async (message: (typeof posted)[number]) => posted.push(message) },
    } as unknown as webApi.WebClient;
    const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
    const offering = presenterOn(clock, quiet);
    // A second replica: its own presenter, on the same database.
    const other = createPresenter({ logger: quiet, clock, store: (store as SqliteStore).interactions });
    const surface = { client, user: 'U1', channel: 'C1', trigger: { id: 't1', receivedAt: 0 } };
    clock.advance(TRIGGER_BUDGET_MS + 1);
    const fixed = { ...form, title: 'Fix the schedule' };
    await offering.present({ kind: 'form', form: fixed }, surface);
    const value = posted[0]?.blocks?.flatMap((b) => b.elements ?? []).find((e) => e.value)?.value ?? '';
    expect((await other.pendingForm(value)).form).toEqual(fixed);
  });
});
