/**
 * HTTP interactions at `POST /discord/interactions` (when `DISCORD_PUBLIC_KEY` is set): every request is
 * verified with Ed25519 over `timestamp + raw body` (headers `X-Signature-Ed25519`, `X-Signature-Timestamp`)
 * before it is parsed; a bad signature or a timestamp more than five minutes off is answered 401. The first
 * response to an interaction is the HTTP answer itself; follow-ups go through the REST webhook as usual.
 */
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { APIInteractionResponse } from 'discord.js';
import type { Clock, Logger } from '../../src/core/index.js';
import { MAX_CHAT_BODY_BYTES, readBounded } from '../../src/http/bounded-body.js';
import type { Handler } from '../../src/http/server.js';
import { BadInteraction, fromRaw } from './inbound/from-raw.js';
import type { Inbound } from './inbound.js';
import type { Replier } from './interactions.js';

export const INTERACTIONS_PATH = '/discord/interactions';
const MAX_SKEW_MS = 5 * 60_000;

/**
 * The application's public key (64 hex characters, as the Developer Portal shows it) as a key object, parsed
 * once: node:crypto verifies with OpenSSL in ~0.1 ms, where a pure-JS Ed25519 took ~10 ms of the event loop
 * per request and queued a burst of interactions behind it (docs/performance.md).
 */
export function discordPublicKey(hex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(hex))
    throw new Error('The Discord public key must be 64 hexadecimal characters.');
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') },
    format: 'jwk',
  });
}

export type VerifyResult = { ok: true } | { ok: false; reason: string };

/** Checks Discord's signature of a request against the application's public key. */
export function verifySignature(options: {
  publicKey: KeyObject;
  signature: string | undefined;
  timestamp: string | undefined;
  body: Buffer;
  now: number;
}): VerifyResult {
  const { signature, timestamp } = options;
  if (!signature || !timestamp) return { ok: false, reason: 'missing signature headers' };
  if (!/^[0-9a-f]{128}$/i.test(signature)) return { ok: false, reason: 'malformed signature' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'malformed timestamp' };
  // A replayed request outside this window is refused even with a valid signature.
  if (Math.abs(options.now - Number(timestamp) * 1000) > MAX_SKEW_MS)
    return { ok: false, reason: 'stale timestamp' };
  const message = Buffer.concat([Buffer.from(timestamp, 'utf8'), options.body]);
  let valid = false;
  try {
    valid = verify(null, message, options.publicKey, Buffer.from(signature, 'hex'));
  } catch {
    // OpenSSL refuses some malformed signatures outright rather than answering false.
  }
  return valid ? { ok: true } : { ok: false, reason: 'bad signature' };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export function createInteractionsEndpoint(options: {
  publicKey: string;
  clock: Clock;
  logger: Logger;
  handle: (inbound: Inbound, reply: Replier) => Promise<void>;
}): Handler {
  const log = options.logger.child({ component: 'discord-http' });
  const publicKey = discordPublicKey(options.publicKey);
  return async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST', 'content-type': 'text/plain' });
      res.end('Use POST.');
      return;
    }
    const body = await readBounded(req, MAX_CHAT_BODY_BYTES);
    if (!body) return send(res, 413, { error: 'body too large' });
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const verified = verifySignature({
      publicKey,
      signature: header('x-signature-ed25519'),
      timestamp: header('x-signature-timestamp'),
      body,
      now: options.clock.now(),
    });
    if (!verified.ok) {
      log.warn({ reason: verified.reason }, 'discord interaction refused');
      return send(res, 401, { error: 'invalid request signature' });
    }
    let inbound: Inbound;
    try {
      inbound = fromRaw(JSON.parse(body.toString('utf8')));
    } catch (error) {
      const reason = error instanceof BadInteraction ? error.message : 'invalid JSON';
      log.warn({ reason }, 'discord interaction unreadable');
      return send(res, 400, { error: reason });
    }
    let answered: (() => void) | undefined;
    const first = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const reply: Replier = {
      callback(response: APIInteractionResponse) {
        send(res, 200, response);
        answered?.();
        return Promise.resolve();
      },
    };
    // The handler carries on (follow-ups) after the HTTP answer; the request ends at the first response.
    const done = options.handle(inbound, reply).finally(() => {
      if (!res.headersSent) send(res, 500, { error: 'no response' });
      answered?.();
    });
    await Promise.race([first, done]);
  };
}
