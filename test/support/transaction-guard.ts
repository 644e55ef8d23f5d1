/**
 * The store's rule, checked while real flows run: a transaction awaits only store calls, never the
 * network, because on SQLite it holds the one connection and on PostgreSQL row locks other replicas wait for.
 *
 * `guard.store(store)` runs every `transaction(fn)` (nested ones too) with a marker in `fn`'s async context,
 * open until `fn` settles. Every network edge the core reaches is wrapped at its lowest level: the video API
 * client's undici dispatcher (each HTTP request of every client, retries included), the chat senders
 * (`post`, `update`, `notify`, `refreshHome`), a request's file links and its conversation membership. A call
 * made where a transaction is open in the caller's async context is recorded with its name and both stacks,
 * and let through, so the flow goes on and every offence shows in one report: `assertNone()` at the end.
 *
 * What it cannot see: a transaction awaiting a network promise started before it opened (a shared in-flight
 * load), since no call is made from its context.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Dispatcher, getGlobalDispatcher } from 'undici';
import type { ChatSender, ConversationMembership, FileLinks, Store } from '../../src/core/ports/index.js';

/** One transaction as the guard marks it; a nested one points at the transaction it runs in. */
interface Marker {
  id: number;
  open: boolean;
  parent: Marker | undefined;
  /** Where the transaction was opened. */
  stack: string;
}

/** A network call made while a transaction was open in the caller's async context. */
export interface NetworkInTransaction {
  /** `video API POST /api/v1/videos`, `chat post slack:W1:C1`, `file link …`. */
  call: string;
  /** Where the call was made (async frames included). */
  stack: string;
  /** Where the open transaction was begun. */
  transaction: string;
}

export class TransactionGuard {
  /** Every violation so far, oldest first. */
  readonly violations: NetworkInTransaction[] = [];
  /** Transactions begun and network calls seen: proof the guard was in the flow at all. */
  readonly counts = { transactions: 0, networkCalls: 0 };

  readonly #context = new AsyncLocalStorage<Marker>();
  readonly #guarded = new WeakMap<object, object>();

  /** `store` with every `transaction` (and those of the `tx` it hands out) marked; all else unchanged. */
  store<S extends Store>(store: S): S {
    const known = this.#guarded.get(store);
    if (known) return known as S;
    const transaction = <T>(fn: (tx: Store) => Promise<T>): Promise<T> => {
      const stack = stackHere('transaction opened');
      return store.transaction((tx) => {
        const marker: Marker = {
          id: ++this.counts.transactions,
          open: true,
          parent: this.#context.getStore(),
          stack,
        };
        const guardedTx = tx === store ? guarded : this.store(tx);
        return this.#context.run(marker, async () => {
          try {
            return await fn(guardedTx);
          } finally {
            marker.open = false;
          }
        });
      });
    };
    const guarded = new Proxy(store, {
      get(target, property) {
        if (property === 'transaction') return transaction;
        const value = Reflect.get(target, property, target);
        // Bound to the store itself: its methods may read private fields a proxy does not have.
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    this.#guarded.set(store, guarded);
    return guarded;
  }

  /** An undici dispatcher for the video API client: `inner` (default the global one) with every request checked. */
  dispatcher(inner: Dispatcher = getGlobalDispatcher()): Dispatcher {
    return inner.compose((dispatch) => (options, handler) => {
      this.check(`video API ${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
  }

  /** `sender` with each delivery checked (`post`, `update`, and `notify`, `refreshHome` where it has them). */
  sender(sender: ChatSender): ChatSender {
    const { notify, refreshHome } = sender;
    return {
      platform: sender.platform,
      post: (conversation, card, options) => {
        this.check(`chat post to ${conversation}`);
        return sender.post(conversation, card, options);
      },
      update: (message, card) => {
        this.check(`chat update of ${message}`);
        return sender.update(message, card);
      },
      ...(notify
        ? {
            notify: (user, conversation, card) => {
              this.check(`chat notice to ${user}`);
              return notify.call(sender, user, conversation, card);
            },
          }
        : {}),
      ...(refreshHome
        ? {
            refreshHome: (user) => {
              this.check(`chat home refresh of ${user}`);
              return refreshHome.call(sender, user);
            },
          }
        : {}),
    };
  }

  /** A request's file links, each read checked. */
  fileLinks(files: FileLinks): FileLinks {
    return {
      read: (link, check) => {
        this.check(`file link read ${link}`);
        return files.read(link, check);
      },
    };
  }

  /** A request's conversation membership, each question checked. */
  membership(conversations: ConversationMembership): ConversationMembership {
    return {
      isMember: (conversation) => {
        this.check(`conversation membership of ${conversation}`);
        return conversations.isMember(conversation);
      },
    };
  }

  /** Records `call` when a transaction is open in the caller's async context. */
  check(call: string): void {
    this.counts.networkCalls++;
    let marker = this.#context.getStore();
    while (marker && !marker.open) marker = marker.parent;
    if (!marker) return;
    this.violations.push({ call, stack: stackHere(call), transaction: marker.stack });
  }

  /** Throws a readable report of every violation (none: returns). */
  assertNone(): void {
    if (this.violations.length === 0) return;
    const report = this.violations
      .map(
        (v, i) =>
          `${i + 1}. ${v.call}\n${indent(v.stack)}\n   inside the transaction\n${indent(v.transaction)}`,
      )
      .join('\n\n');
    throw new Error(
      `${this.violations.length} network call(s) made while a store transaction was open:\n\n${report}`,
    );
  }
}

/** The stack at the caller, deep enough to reach the core, without the guard's, undici's and Node's frames. */
function stackHere(title: string): string {
  const holder: { stack?: string } = {};
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  Error.captureStackTrace(holder, stackHere);
  Error.stackTraceLimit = limit;
  const frames = (holder.stack ?? '')
    .split('\n')
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => !/transaction-guard\.ts|node_modules|node:internal|\(<anonymous>\)/.test(line));
  return [title, ...frames].join('\n');
}

const indent = (text: string): string =>
  text
    .split('\n')
    .map((line) => `     ${line}`)
    .join('\n');
