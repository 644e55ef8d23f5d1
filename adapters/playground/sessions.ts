/**
 * The playground's browser sessions: an HttpOnly, SameSite=Strict cookie the server sets, and the members
 * each session has acted as (the page and its event stream name one). A private message's file is served
 * only to a session its member acted in: a download link copied, logged or shared elsewhere opens nothing.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const SESSION_COOKIE = 'reelbot_playground';

/** Sessions kept at most; the oldest is dropped first (a browser that comes back gets a new one). */
const MAX_SESSIONS = 1000;

export interface PlaygroundSessions {
  /** Records that this browser acts as `user`, setting its session cookie on `res` when it has none yet. */
  actAs(req: IncomingMessage, res: ServerResponse, user: string): void;
  /** Whether this request comes from a session that acted as `user`. */
  actsAs(req: IncomingMessage, user: string): boolean;
}

export function createPlaygroundSessions(): PlaygroundSessions {
  const members = new Map<string, Set<string>>();
  const sessionOf = (req: IncomingMessage): string | undefined => {
    const id = cookieValue(req.headers.cookie, SESSION_COOKIE);
    return id !== undefined && members.has(id) ? id : undefined;
  };
  return {
    actAs(req, res, user) {
      let id = sessionOf(req);
      if (id === undefined) {
        id = randomBytes(24).toString('base64url');
        members.set(id, new Set());
        if (members.size > MAX_SESSIONS) members.delete(members.keys().next().value as string);
        res.setHeader('set-cookie', `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Strict`);
      }
      members.get(id)?.add(user);
    },
    actsAs(req, user) {
      const id = sessionOf(req);
      return id !== undefined && members.get(id)?.has(user) === true;
    },
  };
}

/** One cookie's value from a `Cookie` header. */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
