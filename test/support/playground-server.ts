/**
 * The playground adapter on a test harness, served over a real HTTP server on 127.0.0.1: the page, its event
 * stream and its POSTs reach the real core, and the outbox delivers through the playground's own sender, into
 * the history the page serves.
 */
import {
  createPlaygroundAdapter,
  type PlaygroundAdapter,
  type PlaygroundOptions,
} from '../../adapters/playground/index.js';
import { createHttpServer, type HttpServer } from '../../src/http/server.js';
import type { Harness } from './harness.js';

export interface ServedPlayground {
  url: string;
  http: HttpServer;
  adapter: PlaygroundAdapter;
  /** Ends the page's event streams and stops the server (the harness is the caller's to close). */
  close(): Promise<void>;
}

/** The room: its channels and people; the workspace is `W1` unless given. */
export async function servePlayground(
  h: Harness,
  room: Pick<PlaygroundOptions, 'channels' | 'users' | 'workspace'>,
): Promise<ServedPlayground> {
  const http = createHttpServer({
    logger: h.deps.logger,
    health: () => true,
    metrics: async () => ({ contentType: 'text/plain', body: '' }),
  });
  const adapter = createPlaygroundAdapter({
    bot: h.bot,
    http,
    logger: h.deps.logger,
    clock: h.clock,
    workspace: 'W1',
    ...room,
  });
  h.senders.playground = adapter.sender;
  const { url } = await http.listen(0, '127.0.0.1');
  return {
    url,
    http,
    adapter,
    async close() {
      await adapter.stop();
      await http.close();
    },
  };
}
