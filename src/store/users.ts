/** Per-user preferences: time zone and the most recent video/series (for `last`). */
import type Database from 'better-sqlite3';
import type { Store, UserAddress } from '../core/ports.js';
import type { Synchronous } from './synchronous.js';

type UserStore = Synchronous<Store['users']>;

interface PrefsRow {
  time_zone: string | null;
  last_video: string | null;
  last_series: string | null;
}

export class SqliteUsers implements UserStore {
  readonly #select: Database.Statement<[string], PrefsRow>;
  readonly #setTimeZone: Database.Statement<[string, string]>;
  readonly #setLastVideo: Database.Statement<[string, string]>;
  readonly #setLastSeries: Database.Statement<[string, string]>;

  constructor(db: Database.Database) {
    this.#select = db.prepare('SELECT time_zone, last_video, last_series FROM user_prefs WHERE user = ?');
    const upsert = (column: 'time_zone' | 'last_video' | 'last_series') =>
      db.prepare<[string, string]>(
        `INSERT INTO user_prefs (user, ${column}) VALUES (?, ?)
         ON CONFLICT (user) DO UPDATE SET ${column} = excluded.${column}`,
      );
    this.#setTimeZone = upsert('time_zone');
    this.#setLastVideo = upsert('last_video');
    this.#setLastSeries = upsert('last_series');
  }

  getTimeZone(user: UserAddress): string | undefined {
    return this.#select.get(user)?.time_zone ?? undefined;
  }

  setTimeZone(user: UserAddress, tz: string): void {
    this.#setTimeZone.run(user, tz);
  }

  getLast(user: UserAddress, kind: 'video' | 'series'): string | undefined {
    const row = this.#select.get(user);
    return (kind === 'video' ? row?.last_video : row?.last_series) ?? undefined;
  }

  setLast(user: UserAddress, kind: 'video' | 'series', id: string): void {
    (kind === 'video' ? this.#setLastVideo : this.#setLastSeries).run(user, id);
  }
}
