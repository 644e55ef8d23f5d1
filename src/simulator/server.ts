import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatorOptions } from './options.js';
import { Simulator } from './simulator.js';
import { API_PREFIX } from './views.js';

export interface RunningSimulator {
  /** base URL ending in /api/v1 */
  url: string;
  port: number;
  /** the seeded API keys */
  keys: string[];
  sim: Simulator;
  close(): Promise<void>;
}

/** Serves a new Simulator over HTTP on 127.0.0.1 (port 0 = any free port). */
export async function startSimulator(
  opts: SimulatorOptions & { port?: number; host?: string } = {},
): Promise<RunningSimulator> {
  const { port = 0, host = '127.0.0.1', ...simOptions } = opts;
  const sim = new Simulator(simOptions);
  const server = createServer((req, res) => sim.handle(req, res));
  // Clients such as undici keep connections alive; close() must not wait for them to time out.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostForUrl = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${hostForUrl}:${address.port}`;
  if (simOptions.publicBaseUrl === undefined) sim.setPublicBaseUrl(origin);
  return {
    url: `${origin}${API_PREFIX}`,
    port: address.port,
    keys: [...sim.keys],
    sim,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
