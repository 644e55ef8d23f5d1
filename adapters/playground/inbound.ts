/**
 * The page's POST bodies, validated at the boundary. A bad body is answered 400 with a sentence naming
 * the field; nothing reaches the core.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod';
import { readBounded } from '../../src/http/bounded-body.js';

/** Bodies are small (a command line, a form); anything bigger is refused before parsing. */
export const MAX_BODY_BYTES = 64 * 1024;

/** User, channel and message ids are address parts: no ':' and nothing exotic. */
const idPart = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, 'must be letters, digits, ".", "_" or "-"');

/** The browser's zone (`Intl`), passed to the core as the platform's zone; optional. */
const timeZone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone');

const base = { user: idPart, channel: idPart, timeZone: timeZone.optional() };

/** The composer is one line, like Slack's message box, made for commands rather than whole scripts. */
export const COMPOSER_MAX_LENGTH = 4_000;

/**
 * The text and form values are bounded by the body's size only: a command longer than the composer takes
 * (`maxCommandLength`) and a value longer than its field are answered in words by the core, never here.
 */
export const commandBody = z.object({ ...base, text: z.string() });

export const actionBody = z.object({
  ...base,
  messageId: idPart,
  action: z.string().min(1).max(255),
  value: z.string().max(2_000),
  choice: z.string().max(2_000).optional(),
  /** In a panel of cards (the dashboard): which card the control is on, so an `update` replaces that one. */
  cardIndex: z.number().int().min(0).max(99).optional(),
});

export const formBody = z.object({
  ...base,
  formId: z.string().min(1).max(255),
  state: z.string().max(4_000),
  values: z.record(z.string().max(100), z.string()),
  /** The message whose button opened the form, so an `update` reply can replace it. */
  messageId: idPart.optional(),
});

export type CommandBody = z.infer<typeof commandBody>;
export type ActionBody = z.infer<typeof actionBody>;
export type FormBody = z.infer<typeof formBody>;

/** A request the client got wrong: answered with `status` and `message`, never a crash. */
export class BadRequest extends Error {
  override readonly name = 'BadRequest';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Reads and validates a JSON body. Requiring `application/json` also keeps other sites' plain forms out. */
export async function readJson<T>(req: IncomingMessage, schema: z.ZodType<T>): Promise<T> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) throw new BadRequest(415, 'Send the body as application/json.');
  let body: Buffer | undefined;
  try {
    body = await readBounded(req, MAX_BODY_BYTES);
  } catch {
    // The client went away mid-body: nothing to run, and nobody left to answer.
    throw new BadRequest(400, 'The request body was cut off.');
  }
  if (!body) throw new BadRequest(413, `The body is larger than ${MAX_BODY_BYTES} bytes.`);
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new BadRequest(400, 'The body is not valid JSON.');
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
    throw new BadRequest(400, `Invalid request: ${problems.join('; ')}.`);
  }
  return parsed.data;
}
