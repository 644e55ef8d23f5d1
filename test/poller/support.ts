/** Fakes shared by the poller and outbox tests: a recording chat sender, a recording logger, a scripted API. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ChatDeliveryError,
  type ChatPlatform,
  type ChatSender,
  type Clock,
  type ConversationAddress,
  type Logger,
  type MessageAddress,
  type UserAddress,
} from '../../src/core/ports/index.js';
import type { Card } from '../../src/core/text/cards.js';
import type { CallOptions, VideoApi, VideoStatus } from '../../src/core/video-api/video-api.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { cardText } from '../support/card-text.js';

export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
export const CONV = 'slack:T1:C1';
export const ALICE = 'slack:T1:U1';

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string | undefined;
}

export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const make = (bindings: Record<string, unknown>): Logger & { lines: LogLine[] } => {
    const at =
      (level: LogLine['level']) =>
      (obj: object, msg?: string): void => {
        lines.push({ level, obj: { ...bindings, ...obj }, msg });
      };
    return {
      lines,
      debug: at('debug'),
      info: at('info'),
      warn: at('warn'),
      error: at('error'),
      child: (more) => make({ ...bindings, ...more }),
    };
  };
  return make({});
}

export const newSecretKey = (): Buffer => randomBytes(32);

export function memoryStore(clock: Clock): SqliteStore {
  return openStore({ path: ':memory:', secretKey: newSecretKey(), clock });
}

/** The real store both ways the product opens it; the poller and outbox suites run against each. */
export const STORES: { name: string; open(clock: Clock): { store: SqliteStore; close(): Promise<void> } }[] =
  [
    {
      name: ':memory:',
      open(clock) {
        const store = memoryStore(clock);
        return { store, close: () => store.close() };
      },
    },
    {
      name: 'temp file',
      open(clock) {
        const { dir, cleanup } = tempDir();
        const store = openStore({ path: join(dir, 'reelbot.db'), secretKey: newSecretKey(), clock });
        return {
          store,
          close: async () => {
            await store.close();
            cleanup();
          },
        };
      },
    },
  ];

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'reelbot-poller-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export type SentCall =
  | {
      kind: 'post';
      conversation: ConversationAddress;
      card: Card;
      threadOf?: MessageAddress;
      dedupeId: string;
    }
  | { kind: 'update'; message: MessageAddress; card: Card }
  | { kind: 'notify'; user: UserAddress; conversation: ConversationAddress; card: Card };

/**
 * A chat platform that records what it was asked to show. `failNext` scripts failures for the next calls
 * (a ChatDeliveryError or any error); a failed call is recorded in `attempts` but not in `calls`.
 */
export class FakeChatSender implements ChatSender {
  readonly calls: SentCall[] = [];
  readonly attempts: SentCall[] = [];
  readonly #failures: unknown[] = [];
  readonly #failuresByTitle = new Map<string, unknown[]>();
  #next = 1;

  constructor(
    readonly platform: ChatPlatform = 'slack',
    private readonly clock?: Clock,
    withNotify = true,
  ) {
    if (withNotify) {
      this.notify = (user, conversation, card) =>
        this.#record({ kind: 'notify', user, conversation, card }) ?? Promise.resolve();
    }
  }

  /** Each call made while failures are queued takes (and throws) the next one. */
  failNext(...errors: unknown[]): this {
    this.#failures.push(...errors);
    return this;
  }

  /** Like `failNext`, but only for calls showing a card with this title. */
  failFor(title: string, ...errors: unknown[]): this {
    this.#failuresByTitle.set(title, [...(this.#failuresByTitle.get(title) ?? []), ...errors]);
    return this;
  }

  static rateLimited(retryAfterS: number): ChatDeliveryError {
    return new ChatDeliveryError('429 Too Many Requests', true, retryAfterS);
  }
  static serverError(): ChatDeliveryError {
    return new ChatDeliveryError('502 Bad Gateway', true);
  }
  static permanent(): ChatDeliveryError {
    return new ChatDeliveryError('channel_not_found', false);
  }

  post(
    conversation: ConversationAddress,
    card: Card,
    options: { threadOf?: MessageAddress; dedupeId: string },
  ): Promise<MessageAddress> {
    const failed = this.#record({
      kind: 'post',
      conversation,
      card,
      dedupeId: options.dedupeId,
      ...pickThread(options),
    });
    return failed ?? Promise.resolve(`${conversation}:${this.#next++}.000`);
  }

  update(message: MessageAddress, card: Card): Promise<void> {
    return this.#record({ kind: 'update', message, card }) ?? Promise.resolve();
  }

  notify?: (user: UserAddress, conversation: ConversationAddress, card: Card) => Promise<void>;

  /** When each successful call happened, by the injected clock. */
  readonly at: number[] = [];

  /** Records the call: the rejection of the failure scripted for it, or undefined when it went through. */
  #record(call: SentCall): Promise<never> | undefined {
    this.attempts.push(call);
    const byTitle = this.#failuresByTitle.get(call.card.title);
    if (byTitle && byTitle.length > 0) return Promise.reject(byTitle.shift());
    if (this.#failures.length > 0) return Promise.reject(this.#failures.shift());
    this.calls.push(call);
    this.at.push(this.clock?.now() ?? 0);
    return undefined;
  }

  titles(): string[] {
    return this.calls.map((call) => `${call.kind}:${call.card.title}`);
  }
}

const pickThread = (options: { threadOf?: MessageAddress }): { threadOf?: MessageAddress } =>
  options.threadOf === undefined ? {} : { threadOf: options.threadOf };

export const card = (title: string, text?: string): Card =>
  text === undefined ? { title: cardText(title) } : { title: cardText(title), text: cardText(text) };

export interface ApiCall {
  method: string;
  args: unknown[];
  options: CallOptions | undefined;
}

/**
 * A video API with just the reads the test watchers make; every call is recorded with its options so
 * tests can see the background priority.
 */
export function scriptedApi(
  status: (id: string, options?: CallOptions) => VideoStatus | Promise<VideoStatus>,
): {
  api: VideoApi;
  calls: ApiCall[];
} {
  const calls: ApiCall[] = [];
  const api = {
    videos: {
      async status(id: string, options?: CallOptions): Promise<VideoStatus> {
        calls.push({ method: 'videos.status', args: [id], options });
        return await status(id, options);
      },
    },
  } as unknown as VideoApi;
  return { api, calls };
}

export const processing = (id: string, percent: number): VideoStatus => ({
  id,
  status: 'processing',
  percentCompleted: percent,
  errorMessages: [],
});

export const completed = (id: string): VideoStatus => ({
  id,
  status: 'completed',
  percentCompleted: 100,
  errorMessages: [],
});

/** A promise the test resolves by hand. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks run. */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
