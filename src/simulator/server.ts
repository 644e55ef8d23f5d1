import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SimulatorOptions } from './options.js';
import { Simulator } from './simulator.js';
import { loadState, StateFile } from './state-file.js';
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

/**
 * Serves a new Simulator over HTTP on 127.0.0.1 (port 0 = any free port). With `stateFile` it continues the
 * state saved there (if any) and keeps saving it (state-file.ts); without, it lives in memory.
 */
export async function startSimulator(
  opts: SimulatorOptions & {
    port?: number;
    host?: string;
    /** where its state is kept; `warn` hears why a saved state was not loaded */
    stateFile?: { path: string; warn(message: string): void };
  } = {},
): Promise<RunningSimulator> {
  const { port = 0, host = '127.0.0.1', stateFile, ...simOptions } = opts;
  const saved = stateFile ? loadState(stateFile.path, stateFile.warn) : undefined;
  const sim = new Simulator(saved ? { ...simOptions, state: saved } : simOptions);
  const file = stateFile ? new StateFile(stateFile.path, () => sim.snapshot()) : undefined;
  const server = createServer((req, res) => {
    if (file) res.on('finish', () => file.changed());
    sim.handle(req, res);
  });
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
    close: async () => {
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      });
      file?.flush();
    },
  };
}
