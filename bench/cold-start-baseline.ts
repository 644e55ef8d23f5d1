/**
 * The floor for the cold-start benchmark: the same runtime (node + tsx loader) serving `/healthz` with
 * node:http and nothing else. Reads PORT like the bot.
 */
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  res.writeHead(req.url === '/healthz' ? 200 : 404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: req.url === '/healthz' }));
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
