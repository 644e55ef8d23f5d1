/**
 * One family of date formats: every date a person reads is formatted in `src/core/time/format.ts`
 * (`Tue 1 Dec 2026, 18:00`, day headings, CSV cells), so the ledger, the calendar, the dashboard and the
 * cards cannot drift into formats of their own. Fails on a date formatter anywhere else in the core.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvTimesNote, formatDateTime } from '../../../src/core/time/format.js';

const core = join(import.meta.dirname, '../../../src/core');
/** Files allowed to format dates: the formatters themselves and the zone arithmetic under them. */
const FORMATTERS = ['time/format.ts', 'time/zone.ts'];
/** A date formatted: date-fns-tz, Intl with date or time fields (not a zone lookup), toLocale…String. */
const DATE_FORMATTING =
  /formatInTimeZone\(|\.formatToParts\(|toLocale(Date|Time)String\(|Intl\.DateTimeFormat\([^)]*\b(year|month|day|hour|minute)\b/s;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Core files that format a date themselves. */
function dateFormattersOutside(allowed: readonly string[], texts: Record<string, string>): string[] {
  return Object.entries(texts)
    .filter(([path, text]) => !allowed.includes(path) && DATE_FORMATTING.test(text))
    .map(([path]) => path);
}

describe('one date format family', () => {
  it('formats dates only in time/format.ts (and the zone arithmetic)', () => {
    const texts = Object.fromEntries(
      files(core).map((path) => [relative(core, path), readFileSync(path, 'utf8')]),
    );
    expect(dateFormattersOutside(FORMATTERS, texts)).toEqual([]);
  });

  it('the check itself finds a formatter outside (self-test)', () => {
    expect(
      dateFormattersOutside(FORMATTERS, {
        'commands/x.ts': "formatInTimeZone(at, zone, 'MMM d')",
        'time/format.ts': "formatInTimeZone(at, zone, 'EEE d MMM yyyy, HH:mm')",
      }),
    ).toEqual(['commands/x.ts']);
  });

  it('reads the same from a number and from an API timestamp; an unreadable one as given', () => {
    const at = Date.UTC(2026, 11, 1, 17, 0);
    expect(formatDateTime(at, 'Europe/Paris')).toBe('Tue 1 Dec 2026, 18:00');
    expect(formatDateTime(new Date(at).toISOString(), 'Europe/Paris')).toBe('Tue 1 Dec 2026, 18:00');
    expect(formatDateTime('soon', 'Europe/Paris')).toBe('soon');
  });

  it('names the CSV time columns once for a reader in UTC', () => {
    expect(csvTimesNote('time', 'time_utc', 'Europe/Paris')).toBe(
      '`time` is in Europe/Paris, `time_utc` in UTC',
    );
    expect(csvTimesNote('created', 'created_utc', 'UTC')).toBe('`created` and `created_utc` are both in UTC');
  });
});
