/**
 * A TCP proxy on 127.0.0.1 in front of a server (PostgreSQL here): the network between replicas and their
 * database, made of node:net so a test or the bench can shape it. Each client (a replica) gets an endpoint of
 * its own, so every connection made to that port is known to be that client's:
 *
 * - a delay each way (2 ms ≈ a hop across a data-centre network), applied in order to every chunk;
 * - connections counted per client (opened, and open now);
 * - a PARTITION of one client: nothing is forwarded either way and no socket is closed, as when the network
 *   drops packets. Both ends keep their connections and see silence; bytes sent meanwhile wait in the sockets
 *   (reading stops, as a peer that receives nothing acknowledges nothing) and go through on `heal`, as TCP
 *   retransmits them once the path is back. A connection made during a partition is accepted by the kernel but
 *   reaches the server only on heal (a SYN that gets no answer, as near as a userspace proxy can make it).
 *
 * What a userspace proxy cannot do: a client's TCP keepalive probes are answered by this process's kernel, so
 * keepalive does not notice the partition here; the server's own timeouts (idle_in_transaction, statement) do.
 */
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

export interface TcpProxyOptions {
  /** Where the proxy forwards to. */
  target: { host: string; port: number };
  /** Delay added each way, ms (default 0). */
  delayMs?: number;
}

export interface ClientCounts {
  /** Connections the client opened through the proxy, in all. */
  opened: number;
  /** Connections open now. */
  open: number;
}

export interface TcpProxy {
  /** The port `client` connects to (made on first call; the same port after). */
  endpoint(client: string): Promise<number>;
  /** `url` (a postgres:// URL of the target) rewritten to go through `client`'s endpoint. */
  urlFor(client: string, url: string): Promise<string>;
  connections(client: string): ClientCounts;
  /** The delay each way from now on (chunks already in flight keep theirs). */
  setDelay(ms: number): void;
  /** Stops forwarding `client`'s traffic both ways, closing nothing. */
  partition(client: string): void;
  /** Forwards again whatever waited, and everything after. */
  heal(client: string): void;
  /** Closes every endpoint and connection. */
  close(): Promise<void>;
}

interface Pair {
  downstream: Socket;
  upstream: Socket | undefined;
  /** Starts forwarding (connecting upstream first, if it has not yet). */
  flow(): void;
  /** Stops forwarding: nothing read either way until `flow`. */
  hold(): void;
}

interface Endpoint {
  server: Server;
  port: number;
  pairs: Set<Pair>;
  opened: number;
  partitioned: boolean;
}

export function startTcpProxy(options: TcpProxyOptions): Promise<TcpProxy> {
  let delayMs = options.delayMs ?? 0;
  const endpoints = new Map<string, Endpoint>();
  const opening = new Map<string, Promise<Endpoint>>();

  /** Forwards `from` → `to`, each chunk after the delay, in order (equal timeouts fire in creation order). */
  const pipe = (from: Socket, to: Socket) => {
    from.on('data', (chunk: Buffer) => {
      if (delayMs <= 0) to.write(chunk);
      else setTimeout(() => to.destroyed || to.write(chunk), delayMs);
    });
    from.on('end', () => {
      if (delayMs <= 0) to.end();
      else setTimeout(() => to.end(), delayMs);
    });
  };

  const accept = (endpoint: Endpoint, downstream: Socket) => {
    endpoint.opened++;
    downstream.setNoDelay(true);
    downstream.pause();
    const pair: Pair = {
      downstream,
      upstream: undefined,
      flow() {
        if (!pair.upstream) {
          const upstream = tcpConnect(options.target);
          upstream.setNoDelay(true);
          pair.upstream = upstream;
          pipe(downstream, upstream);
          pipe(upstream, downstream);
          upstream.on('error', () => downstream.destroy());
          upstream.on('close', () => downstream.destroy());
        }
        downstream.resume();
        pair.upstream.resume();
      },
      hold() {
        downstream.pause();
        pair.upstream?.pause();
      },
    };
    endpoint.pairs.add(pair);
    downstream.on('error', () => pair.upstream?.destroy());
    downstream.on('close', () => {
      endpoint.pairs.delete(pair);
      pair.upstream?.destroy();
    });
    // Held from the start during a partition: its bytes wait in the kernel until `flow`.
    if (!endpoint.partitioned) pair.flow();
  };

  const open = async (client: string): Promise<Endpoint> => {
    const server = createServer();
    const endpoint: Endpoint = { server, port: 0, pairs: new Set(), opened: 0, partitioned: false };
    server.on('connection', (socket) => accept(endpoint, socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    endpoint.port = typeof address === 'object' && address ? address.port : 0;
    endpoints.set(client, endpoint);
    return endpoint;
  };

  const endpointOf = (client: string): Endpoint => {
    const endpoint = endpoints.get(client);
    if (!endpoint) throw new Error(`no proxy endpoint for ${client}: call endpoint('${client}') first`);
    return endpoint;
  };

  const proxy: TcpProxy = {
    async endpoint(client) {
      let pending = opening.get(client);
      if (!pending) {
        pending = open(client);
        opening.set(client, pending);
      }
      return (await pending).port;
    },
    async urlFor(client, url) {
      const port = await proxy.endpoint(client);
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    connections(client) {
      const endpoint = endpoints.get(client);
      return { opened: endpoint?.opened ?? 0, open: endpoint?.pairs.size ?? 0 };
    },
    setDelay(ms) {
      delayMs = ms;
    },
    partition(client) {
      const endpoint = endpointOf(client);
      endpoint.partitioned = true;
      for (const pair of endpoint.pairs) pair.hold();
    },
    heal(client) {
      const endpoint = endpointOf(client);
      endpoint.partitioned = false;
      for (const pair of endpoint.pairs) pair.flow();
    },
    async close() {
      await Promise.all(
        [...endpoints.values()].map(
          (endpoint) =>
            new Promise<void>((resolve) => {
              for (const pair of endpoint.pairs) {
                pair.downstream.destroy();
                pair.upstream?.destroy();
              }
              endpoint.server.close(() => resolve());
            }),
        ),
      );
      endpoints.clear();
      opening.clear();
    },
  };
  // Endpoints open on first use: nothing to wait for yet.
  return Promise.resolve(proxy);
}
