import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  type SeedTeam,
  SIMULATOR_PROFILES,
  type SimulatorOptions,
  type SimulatorProfile,
} from './options.js';
import { PLATFORMS, SCOPES } from './vocabulary.js';

/** CLI flags; each also reads `SIM_<NAME>` from the environment (the flag wins). */
const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  'seed-file': { type: 'string' },
  speed: { type: 'string' },
  'generation-failure-rate': { type: 'string' },
  'render-failure-rate': { type: 'string' },
  'post-failure-rate': { type: 'string' },
  'thumbnail-failure-rate': { type: 'string' },
  'server-error-rate': { type: 'string' },
  'latency-ms': { type: 'string' },
  'random-seed': { type: 'string' },
  'public-base-url': { type: 'string' },
  'payment-failure-rate': { type: 'string' },
  'publish-failure-platforms': { type: 'string' },
  profile: { type: 'string' },
  'disable-rate-limits': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const USAGE = `Usage: npm run simulator -- [options]
  --port N                       port on 127.0.0.1 (default 4010; 0 = any free port)
  --host H                       interface to listen on (default 127.0.0.1)
  --seed-file teams.json         teams and keys to seed (default: a demo team with a fresh key)
  --speed X                      time acceleration of jobs and rate-limit windows (default 1 = real time)
  --generation-failure-rate R    0..1 (likewise --render-, --post-, --thumbnail-failure-rate)
  --server-error-rate R          0..1 share of API requests answered with 500
  --payment-failure-rate R       0..1 share of charged creations answered 402 payment_failed
  --publish-failure-platforms P  comma-separated platforms whose POST /posts the platform refuses
  --profile spec|real            spec: the shapes of video-api.md (default); real: what the real product's
                                 published references show (older shapes, opaque ids, extra fields…)
  --latency-ms N                 added latency per API request
  --random-seed N                deterministic ids and failures
  --public-base-url URL          origin used in media URLs (default http://<host>:<port>)
  --disable-rate-limits          turn the spec's rate limits off
Every option can also be set as SIM_<NAME> in the environment, e.g. SIM_SPEED=60.`;

const seedFileSchema = z.strictObject({
  teams: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        plan: z.string().min(1).optional(),
        credits: z.number().int().min(0).optional(),
        projectCap: z.number().int().min(0).optional(),
        keys: z
          .array(z.strictObject({ key: z.string().min(1), scopes: z.array(z.enum(SCOPES)).optional() }))
          .min(1),
        accounts: z
          .record(
            z.string(),
            z.array(
              z.strictObject({
                authId: z.string().min(1),
                label: z.string(),
                isDefault: z.boolean().optional(),
              }),
            ),
          )
          .optional(),
      }),
    )
    .min(1),
});

export interface CliConfig {
  port: number;
  host: string;
  options: SimulatorOptions;
  help: boolean;
}

/** A mistake in the flags, the environment or the seed file; its message says what to fix. */
export class CliError extends Error {}

/** A comma-separated list of platforms (`tiktok,x`), each checked. */
function platformList(flag: string, raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const list = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const unknown = list.find((p) => !(PLATFORMS as readonly string[]).includes(p));
  if (unknown !== undefined)
    throw new CliError(`--${flag} takes platforms among ${PLATFORMS.join(', ')}; got '${unknown}'`);
  return list;
}

export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliConfig {
  let values: Partial<Record<keyof typeof FLAGS, string | boolean>>;
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${USAGE}`);
  }
  const get = (flag: keyof typeof FLAGS): string | undefined => {
    const value = values[flag];
    if (typeof value === 'string') return value;
    const fromEnv = env[`SIM_${flag.toUpperCase().replaceAll('-', '_')}`];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };
  const number = (
    flag: keyof typeof FLAGS,
    check: (n: number) => boolean,
    what: string,
  ): number | undefined => {
    const raw = get(flag);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) {
      throw new CliError(
        `--${flag} (or SIM_${flag.toUpperCase().replaceAll('-', '_')}) must be ${what}; got '${raw}'`,
      );
    }
    return n;
  };
  const rate = (flag: keyof typeof FLAGS) => number(flag, (n) => n >= 0 && n <= 1, 'a number from 0 to 1');

  const options: SimulatorOptions = {};
  const set = <K extends keyof SimulatorOptions>(key: K, value: SimulatorOptions[K] | undefined) => {
    if (value !== undefined) options[key] = value;
  };
  set(
    'speed',
    number('speed', (n) => n > 0, 'a positive number'),
  );
  set('generationFailureRate', rate('generation-failure-rate'));
  set('renderFailureRate', rate('render-failure-rate'));
  set('postFailureRate', rate('post-failure-rate'));
  set('thumbnailFailureRate', rate('thumbnail-failure-rate'));
  set('serverErrorRate', rate('server-error-rate'));
  set('paymentFailureRate', rate('payment-failure-rate'));
  set('publishFailurePlatforms', platformList('publish-failure-platforms', get('publish-failure-platforms')));
  set(
    'latencyMs',
    number('latency-ms', (n) => n >= 0, 'a number of milliseconds, 0 or more'),
  );
  set('randomSeed', number('random-seed', Number.isInteger, 'an integer'));
  set('publicBaseUrl', get('public-base-url'));
  const profile = get('profile');
  if (profile !== undefined) {
    if (!(SIMULATOR_PROFILES as readonly string[]).includes(profile)) {
      throw new CliError(
        `--profile (or SIM_PROFILE) must be ${SIMULATOR_PROFILES.join(' or ')}; got '${profile}'`,
      );
    }
    options.profile = profile as SimulatorProfile;
  }
  const disable =
    values['disable-rate-limits'] === true || ['1', 'true'].includes(env.SIM_DISABLE_RATE_LIMITS ?? '');
  if (disable) options.rateLimits = false;
  const seedFile = get('seed-file');
  if (seedFile !== undefined) options.teams = readSeedFile(seedFile);

  return {
    port: number('port', (n) => Number.isInteger(n) && n >= 0 && n < 65536, 'a port number 0–65535') ?? 4010,
    host: get('host') ?? '127.0.0.1',
    options,
    help: values.help === true,
  };
}

export function readSeedFile(path: string): SeedTeam[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`--seed-file ${path}: cannot read it as JSON (${(error as Error).message})`);
  }
  const parsed = seedFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliError(`--seed-file ${path}: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  // Strip absent optionals so the result satisfies exactOptionalPropertyTypes.
  return JSON.parse(JSON.stringify(parsed.data.teams)) as SeedTeam[];
}
