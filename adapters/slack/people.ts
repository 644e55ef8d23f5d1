/**
 * Who a Slack user is, for `RequestInfo`: display name, IANA time zone (`user.tz`) and whether they are a
 * workspace admin/owner (`is_admin`, `is_owner`: they set the team policy) from `users.info`,
 * cached for an hour so a busy channel costs one lookup per person, not one per command. A failed lookup
 * (rate limit, missing scope) is remembered briefly and the command runs without them.
 */
import type { webApi } from '@slack/bolt';
import type { Clock, Logger } from '../../src/core/index.js';

export interface Person {
  name?: string;
  timeZone?: string;
  /** A workspace admin or owner (`is_admin` / `is_owner`): sets the team policy. */
  isAdmin?: boolean;
}

const TTL_MS = 3600_000;
const FAILURE_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

export class SlackPeople {
  readonly #cache = new Map<string, { person: Person; until: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async lookup(client: webApi.WebClient, team: string, user: string): Promise<Person> {
    const key = `${team}:${user}`;
    const now = this.clock.now();
    const cached = this.#cache.get(key);
    if (cached && cached.until > now) return cached.person;
    let person: Person = {};
    let ttl = TTL_MS;
    try {
      const info = await client.users.info({ user });
      const u = info.user;
      const name = u?.profile?.display_name || u?.real_name || u?.name;
      person = {
        ...(name ? { name } : {}),
        ...(u?.tz && isZone(u.tz) ? { timeZone: u.tz } : {}),
        ...(u?.is_admin || u?.is_owner || u?.is_primary_owner ? { isAdmin: true } : {}),
      };
    } catch (error) {
      ttl = FAILURE_TTL_MS;
      this.logger.warn(
        { slackError: (error as { data?: { error?: string } }).data?.error ?? (error as Error).name },
        'users.info failed; running without the user’s time zone',
      );
    }
    this.#cache.delete(key);
    this.#cache.set(key, { person, until: now + ttl });
    if (this.#cache.size > MAX_ENTRIES) this.#cache.delete(this.#cache.keys().next().value as string);
    return person;
  }
}

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
