/** Per-user preferences: time zone, the most recent video/series (for `last`) and how pings reach them. */
import type { NotifyMode, Store, UserAddress } from '../../core/ports/index.js';
import type { Sql } from '../sql.js';

type UserStore = Store['users'];

interface PrefsRow {
  time_zone: string | null;
  last_video: string | null;
  last_series: string | null;
  notify: string | null;
}

type Column = 'time_zone' | 'last_video' | 'last_series' | 'notify';
const NOTIFY_MODES: readonly string[] = ['mention', 'dm', 'off'] satisfies NotifyMode[];

export class Users implements UserStore {
  constructor(private readonly sql: Sql) {}

  async getTimeZone(user: UserAddress): Promise<string | undefined> {
    return (await this.#select(user))?.time_zone ?? undefined;
  }

  async setTimeZone(user: UserAddress, tz: string): Promise<void> {
    await this.#upsert('time_zone', user, tz);
  }

  async getLast(user: UserAddress, kind: 'video' | 'series'): Promise<string | undefined> {
    const row = await this.#select(user);
    return (kind === 'video' ? row?.last_video : row?.last_series) ?? undefined;
  }

  async setLast(user: UserAddress, kind: 'video' | 'series', id: string): Promise<void> {
    await this.#upsert(kind === 'video' ? 'last_video' : 'last_series', user, id);
  }

  async getNotify(user: UserAddress): Promise<NotifyMode | undefined> {
    const mode = (await this.#select(user))?.notify;
    return mode && NOTIFY_MODES.includes(mode) ? (mode as NotifyMode) : undefined;
  }

  async setNotify(user: UserAddress, mode: NotifyMode): Promise<void> {
    await this.#upsert('notify', user, mode);
  }

  #select(user: UserAddress): Promise<PrefsRow | undefined> {
    return this.sql.row<PrefsRow>(
      'SELECT time_zone, last_video, last_series, notify FROM user_prefs WHERE user_address = $1',
      [user],
    );
  }

  async #upsert(column: Column, user: UserAddress, value: string): Promise<void> {
    await this.sql.count(
      `INSERT INTO user_prefs (user_address, ${column}) VALUES ($1, $2)
       ON CONFLICT (user_address) DO UPDATE SET ${column} = excluded.${column}`,
      [user, value],
    );
  }
}
