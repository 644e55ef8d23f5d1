/**
 * `npm run register-commands`: registers `/reel` with Discord from the same declarations the bot runs
 * (guild-scoped with `DISCORD_GUILD_ID`, else global; a no-op when Discord already has them).
 * `npm run register-commands -- --print` prints the payload instead, without contacting Discord.
 */
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from '../../src/config.js';
import { errorMessage, MODULES } from '../../src/core/index.js';
import { buildCommandPayload, COMMAND_BUDGET, commandSize } from './commands.js';
import { createRest } from './index.js';
import { registerCommands } from './register.js';

/** Runs the command; returns the exit code. */
export async function runRegisterCommands(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  write: (line: string) => void,
): Promise<number> {
  const commands = MODULES.flatMap((m) => m.commands ?? []);
  if (argv.includes('--print')) {
    write(JSON.stringify(buildCommandPayload(commands), null, 2));
    return 0;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      write(`Cannot register commands: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (!config.discord) {
    write(
      'Cannot register commands: set DISCORD_TOKEN and DISCORD_APPLICATION_ID (Discord developer portal).',
    );
    return 2;
  }
  const payload = buildCommandPayload(commands);
  try {
    const result = await registerCommands({
      rest: createRest(config.discord),
      applicationId: config.discord.applicationId,
      guildId: config.discord.guildId,
      commands,
    });
    const where = result.scope === 'guild' ? `guild ${config.discord.guildId}` : 'all servers (global)';
    const size = payload.map((c) => commandSize(c)).join(', ');
    write(
      result.changed
        ? `Registered /${result.commands.join(', /')} for ${where} (${commands.length} commands, ${size} characters: /reel's budget is ${COMMAND_BUDGET}, Discord's cap 8000).`
        : `/${result.commands.join(', /')} is already up to date for ${where}; nothing sent.`,
    );
    if (result.changed && result.scope === 'global')
      write('Global commands can take up to an hour to appear.');
    return 0;
  } catch (error) {
    write(`Registering commands failed: ${errorMessage(error)}`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (existsSync('.env')) process.loadEnvFile?.('.env');
  runRegisterCommands(process.argv.slice(2), process.env, (line) => process.stdout.write(`${line}\n`)).then(
    (code) => process.exit(code),
  );
}
