/**
 * Validates and normalises raw argument values against a command's option declarations. Shared by the
 * text parser and by adapters that fill arguments from typed options (Discord), so both paths agree.
 */

import { userError } from '../dispatch/context.js';
import { err, ok, type Result } from '../dispatch/result.js';
import { PLATFORMS, type Platform } from '../video-api/video-api.js';
import type { CommandSpec, OptionSpec, RawArgs } from './command-spec.js';

const PLATFORM_ALIASES: Record<string, Platform> = {
  yt: 'youtube',
  twitter: 'x',
  ig: 'instagram',
  insta: 'instagram',
  fb: 'facebook',
  li: 'linkedin',
  tt: 'tiktok',
};

export function parsePlatform(value: string): Platform | undefined {
  const v = value.trim().toLowerCase();
  if ((PLATFORMS as readonly string[]).includes(v)) return v as Platform;
  return PLATFORM_ALIASES[v];
}

/** `youtube,tiktok`, `youtube tiktok` or `all`. */
export function parsePlatforms(value: string | string[]): Result<Platform[]> {
  const words = (Array.isArray(value) ? value : [value]).flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
  if (words.length === 1 && words[0]?.toLowerCase() === 'all') return ok([...PLATFORMS]);
  const out: Platform[] = [];
  for (const w of words) {
    const p = parsePlatform(w);
    if (!p) return err(userError('bad-platform', { value: w, allowed: PLATFORMS.join(', ') }));
    if (!out.includes(p)) out.push(p);
  }
  if (out.length === 0) return err(userError('bad-platform', { value: '', allowed: PLATFORMS.join(', ') }));
  return ok(out);
}

function validateOne(spec: CommandSpec, o: OptionSpec, raw: unknown): Result<unknown> {
  const name = o.name;
  const text = Array.isArray(raw) ? raw.join(' ') : String(raw);
  switch (o.kind) {
    case 'boolean': {
      if (typeof raw === 'boolean') return ok(raw);
      const v = text.toLowerCase();
      if (['true', 'yes', 'on', '1', ''].includes(v)) return ok(true);
      if (['false', 'no', 'off', '0'].includes(v)) return ok(false);
      return err(userError('bad-boolean', { option: name, value: text }));
    }
    case 'int': {
      const n = typeof raw === 'number' ? raw : /^-?\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(n)) return err(userError('bad-int', { option: name, value: text }));
      if ((o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) {
        return err(userError('int-range', { option: name, value: n, min: o.min ?? '', max: o.max ?? '' }));
      }
      return ok(n);
    }
    case 'choice': {
      const choices = o.choices ?? [];
      const hit = choices.find((c) => c.toLowerCase() === text.trim().toLowerCase());
      if (!hit)
        return err(userError('bad-choice', { option: name, value: text, allowed: choices.join(', ') }));
      return ok(hit);
    }
    case 'platform': {
      const p = parsePlatform(text);
      return p ? ok(p) : err(userError('bad-platform', { value: text, allowed: PLATFORMS.join(', ') }));
    }
    case 'platforms':
      return parsePlatforms(Array.isArray(raw) ? raw.map(String) : text);
    case 'url': {
      try {
        const u = new URL(text.trim());
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
        return ok(u.toString());
      } catch {
        return err(userError('bad-url', { option: name, value: text }));
      }
    }
    default: {
      const value = o.kind === 'text' ? text : text.trim();
      if (value.trim() === '') return err(userError('missing-arg', { option: name, command: spec.name }));
      if (o.maxLength !== undefined && value.length > o.maxLength) {
        return err(userError('too-long', { option: name, max: o.maxLength, length: value.length }));
      }
      return ok(value);
    }
  }
}

/** Checks every declared option; unknown keys are rejected so a typo never half-acts. */
export function validateArgs(spec: CommandSpec, raw: RawArgs): Result<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const known = new Set(spec.options.map((o) => o.name));
  for (const key of Object.keys(raw)) {
    if (raw[key] !== undefined && !known.has(key)) {
      return err(userError('unknown-flag', { flag: key, command: spec.name }));
    }
  }
  for (const o of spec.options) {
    const value = raw[o.name];
    if (value === undefined || (typeof value === 'string' && value.trim() === '' && o.kind !== 'boolean')) {
      if (o.required) return err(userError('missing-arg', { option: o.name, command: spec.name }));
      continue;
    }
    const r = validateOne(spec, o, value);
    if (!r.ok) return r;
    out[o.name] = r.value;
  }
  return ok(out);
}
