/**
 * Words, not internal values (STYLE rule 16): every message code and every audited action reads as
 * words. Each is rendered with realistic params and fails on a missing wording, a raw snake_case value, a
 * lower-case platform value outside what a person is meant to type (code spans and command references), or
 * an id anywhere (`vid_…`, `ser_…`, `acc_…`, `ap_…`, 24-hex object ids). The audit's actions are found in the code
 * that records them, so a new action without words fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_WORDING, type AuditNames, describeEntry } from '../../src/core/audit/rows.js';
import type { AuditEntry } from '../../src/core/ports/index.js';
import { humanise } from '../../src/core/text/labels.js';
import { MESSAGE_KINDS } from '../../src/core/text/message-kinds.js';
import { type MessageCode, say } from '../../src/core/text/messages.js';
import { MESSAGE_PARAMS } from '../support/message-params.js';

const CODES = Object.keys(MESSAGE_KINDS) as MessageCode[];

const VIDEO_ID = '6b03f2808da6bad5420027ec';
const SERIES_ID = '6b03f2808da6bad5420027ed';

/** What a person reads as prose: code spans and command references are what they type, so left out. */
const prose = (markdown: string): string =>
  markdown
    .replace(/`[^`]*`/g, ' ')
    .replace(/⟦[^⟧]*⟧/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/\\_/g, '_');

const RAW_ID = /\b(?:vid|ser|acc|ap)_[A-Za-z0-9]+|\b[0-9a-f]{24}\b/;
const SNAKE = /\b[a-z]+(?:_[a-z0-9]+)+\b/;
const PLATFORM_VALUE = /\b(?:youtube|tiktok|instagram|facebook|linkedin|threads)\b/;

/** Why `text` is not words, or undefined. */
function rawIn(text: string): string | undefined {
  const words = prose(text);
  // An id is no word even in a code span: a person reads the name of what it stands for.
  return (
    RAW_ID.exec(text.replace(/\]\([^)]*\)/g, ']'))?.[0] ??
    SNAKE.exec(words)?.[0] ??
    PLATFORM_VALUE.exec(words)?.[0] ??
    (/undefined|NaN|\[object/.exec(words)?.[0] as string | undefined)
  );
}

describe('every message code reads as words', () => {
  it.each(CODES)('%s', (code) => {
    const text = say(code, MESSAGE_PARAMS);
    expect(text, 'missing wording').not.toBe(`Something went wrong (${code}).`);
    expect(text.trim()).not.toBe('');
    expect(rawIn(text), text).toBeUndefined();
  });
});

/** Every audited action the code records: the literals in the files that write audit rows. */
function recordedActions(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) files.push(path);
    }
  };
  walk(join(import.meta.dirname, '../../src/core'));
  const actions = new Set<string>();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    if (!/audit\.record\(|auditApproval\(/.test(source)) continue;
    for (const m of source.matchAll(/'((?:approval|video|series|settings|policy)\.[a-z-]+)'/g)) {
      actions.add(m[1] as string);
    }
  }
  return [...actions].sort();
}

/** One row per action with the details its writers record (ids where they record ids). */
function entryFor(action: string): AuditEntry {
  return {
    at: Date.UTC(2026, 10, 23, 9, 5),
    conversation: 'playground:W1:C1',
    actor: 'playground:W1:U1',
    action,
    videoId: VIDEO_ID,
    seriesId: SERIES_ID,
    credits: 20,
    details: {
      summary: 'publish **Launch teaser** to YouTube',
      platform: 'youtube',
      platforms: ['youtube', 'x'],
      scheduledTime: '2026-11-24T08:00:00.000Z',
      postUrl: 'https://youtube.example/watch?v=1',
      approval: 'ap_1234',
      requester: 'playground:W1:U2',
      reason: 'Not on brand',
      error: 'The video service refused it.',
      via: 'button',
      was: 'pending',
      why: 'not-allowed',
      role: 'publish',
      fields: ['posting time', 'model'],
      setting: 'approval',
      from: 'off',
      to: 'publish',
      scope: 'workspace',
      rules: ['publish'],
      model: 'motion_lite',
      changes: ['name'],
    },
  };
}

const NAMES: AuditNames = {
  videos: new Map([[VIDEO_ID, 'Launch teaser']]),
  series: new Map([[SERIES_ID, 'Night Terrors']]),
  gone: new Set(),
};

describe('every audited action reads as words', () => {
  const actions = recordedActions();

  it('finds the actions the code records', () => {
    expect(actions.length).toBeGreaterThan(20);
    expect(actions).toContain('approval.withdraw');
  });

  it.each(actions)('%s has wording', (action) => {
    expect(Object.hasOwn(AUDIT_WORDING, action), `no wording for ${action}`).toBe(true);
    const text = describeEntry(entryFor(action), 'Europe/Paris', NAMES);
    expect(text).not.toContain(action);
    expect(text).not.toContain('no words for');
    expect(rawIn(text), text).toBeUndefined();
    // An entry about a video or a series names it.
    if (/^(video|series)\./.test(action)) expect(text).toMatch(/Launch teaser|Night Terrors/);
  });

  it('names a deleted video by the name its deletion recorded, and never shows an unknown id', () => {
    const deleted = { ...entryFor('video.delete'), details: { videoName: 'Gone' } };
    expect(describeEntry(deleted, 'UTC', { ...NAMES, videos: new Map() })).toBe('deleted “Gone”');
    const unknown = describeEntry(entryFor('video.render'), 'UTC', {
      videos: new Map(),
      series: new Map(),
      gone: new Set([VIDEO_ID]),
    });
    expect(unknown).toBe('rendered a video since deleted');
    expect(
      describeEntry({ ...entryFor('video.render'), action: 'video.future' }, 'UTC', NAMES),
    ).not.toContain('video.future');
  });
});

describe('the labelling fallback', () => {
  it('humanises a value no catalog names, never leaving snake_case', () => {
    expect(humanise('scary_stories')).toBe('Scary stories');
    expect(humanise('ai_story')).toBe('AI story');
    expect(humanise('public')).toBe('Public');
  });
});
