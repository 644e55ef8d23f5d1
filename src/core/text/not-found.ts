/**
 * "Look it up; if it is not there, say so." The video service answers 404 for a thing deleted elsewhere and
 * for another team's (a key sees only its own team); both read the same to the member.
 */
import { userError } from '../dispatch/context.js';
import { VideoApiError } from '../video-api/video-api.js';
import type { MessageCode } from './messages.js';

/** The codes that say "no <thing> matches `ref`". */
export type NotFoundCode = Extract<MessageCode, `not-found-${string}`>;

/** Whether the video service answered 404. */
export const isNotFound = (error: unknown): error is VideoApiError =>
  error instanceof VideoApiError && error.type === 'not_found';

/** What `read` returns; a 404 becomes the user error `code` for `ref` (`No series matches \`ref\``). */
export async function readOrNotFound<T>(read: () => Promise<T>, code: NotFoundCode, ref: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isNotFound(error)) throw userError(code, { ref });
    throw error;
  }
}
