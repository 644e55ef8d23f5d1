/**
 * `npm run simulator -- --port 4010 [--seed-file teams.json] [--speed 60] …`
 * Prints the base URL, then each seeded API key on its own line (stdout); logs go to stderr.
 */
import pino from 'pino';
import { CliError, parseCli, USAGE } from './cli-options.js';
import { demoTeam } from './options.js';
import { startSimulator } from './server.js';

async function main(): Promise<void> {
  const config = parseCli(process.argv.slice(2));
  if (config.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const logger = pino({ name: 'simulator', level: process.env.LOG_LEVEL || 'info' }, pino.destination(2));
  const running = await startSimulator({
    teams: config.options.teams ?? [demoTeam()],
    ...config.options,
    logger,
    port: config.port,
    host: config.host,
  });
  process.stdout.write(`${running.url}\n${running.keys.map((k) => `${k}\n`).join('')}`);
  logger.info(
    { url: running.url, keys: running.keys.length, profile: running.sim.profile, knobs: running.sim.knobs },
    'simulator ready',
  );

  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'simulator stopping');
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  const message = error instanceof CliError ? error.message : `simulator failed to start: ${String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(error instanceof CliError ? 2 : 1);
});
