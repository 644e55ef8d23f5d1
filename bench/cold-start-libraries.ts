/**
 * The libraries' floor for the cold-start benchmark: the `slack` configuration's libraries and nothing of the
 * bot. It loads what the bot cannot start without there (Bolt's `App` with its `HTTPReceiver`, better-sqlite3
 * opening a file in REELBOT_DATA_DIR, pino, undici's `request`, zod), makes one object of each, and serves
 * `/healthz` with node:http. Bundled exactly as the bot is (scripts/bundle-options.mjs). What the bot takes
 * beyond it is the bot's own; what it takes beyond the bare floor no bundling of the bot can remove.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { App, HTTPReceiver } from '@slack/bolt';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { request } from 'undici';
import { z } from 'zod';

const db = new Database(join(process.env.REELBOT_DATA_DIR ?? '.', 'floor.db'));
db.pragma('journal_mode = WAL');
const log = pino({ level: 'warn' });
const receiver = new HTTPReceiver({ signingSecret: 'floor' });
const app = new App({ token: 'xoxb-floor', receiver, tokenVerificationEnabled: false });
const shape = z.object({ ok: z.boolean() });
const server = createServer((req, res) => {
  res.writeHead(req.url === '/healthz' ? 200 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify(shape.parse({ ok: req.url === '/healthz' })));
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
log.debug({ app: typeof app, request: typeof request }, 'libraries floor ready');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
