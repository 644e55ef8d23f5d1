/**
 * Server-sent events to open pages, one stream per browser tab, tagged with the user the tab acts as.
 * A message goes to every stream of the channel's users, or only to its owner's streams when private.
 */
import type { ServerResponse } from 'node:http';
import type { Clock } from '../../src/core/index.js';
import type { MessageView } from './html/message.js';

/** Comment lines keep idle connections open through proxies and reveal dead ones. */
const HEARTBEAT_MS = 15_000;

interface Stream {
  user: string;
  res: ServerResponse;
}

export class EventHub {
  readonly #streams = new Set<Stream>();
  /** Stops the heartbeat loop; set while any stream is open. */
  #heartbeat: AbortController | undefined;

  constructor(private readonly clock: Clock) {}

  /** Takes over `res` as an event stream until the client goes away or `close()` runs. */
  open(user: string, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    // `retry` sets the browser's reconnect delay; `ready` tells the page it may reload missed history.
    res.write('retry: 2000\n\n');
    const stream: Stream = { user, res };
    this.#streams.add(stream);
    res.write(`event: ready\ndata: ${JSON.stringify({ user })}\n\n`);
    res.on('close', () => {
      this.#streams.delete(stream);
      this.#schedule();
    });
    this.#schedule();
  }

  /** A new or edited message; `visibleTo` restricts it to one user's tabs. */
  message(view: MessageView, visibleTo?: string): void {
    const frame = `event: message\ndata: ${JSON.stringify(view)}\n\n`;
    for (const stream of this.#streams) {
      if (visibleTo === undefined || stream.user === visibleTo) stream.res.write(frame);
    }
  }

  get size(): number {
    return this.#streams.size;
  }

  close(): void {
    for (const stream of this.#streams) stream.res.end();
    this.#streams.clear();
    this.#schedule();
  }

  #schedule(): void {
    if (this.#streams.size > 0 && !this.#heartbeat) {
      this.#heartbeat = new AbortController();
      void this.#beat(this.#heartbeat.signal);
    } else if (this.#streams.size === 0 && this.#heartbeat) {
      this.#heartbeat.abort();
      this.#heartbeat = undefined;
    }
  }

  async #beat(signal: AbortSignal): Promise<void> {
    try {
      for (;;) {
        await this.clock.timer(HEARTBEAT_MS, signal);
        for (const stream of this.#streams) stream.res.write(': ping\n\n');
      }
    } catch {
      // Aborted: the last stream went away.
    }
  }
}
