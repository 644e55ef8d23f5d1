import type { Engine } from './engine.js';
import { type SeedTeam, TEAM_DEFAULTS } from './options.js';
import type { AccountRec, TeamRec } from './records.js';
import { PLATFORMS, type Platform, SCOPES, type Scope } from './vocabulary.js';

const isPlatform = (p: string): p is Platform => (PLATFORMS as readonly string[]).includes(p);
const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** Creates the seeded teams and their keys; a bad seed (unknown scope/platform, duplicate key) throws. */
export function seedTeams(engine: Engine, teams: readonly SeedTeam[]): string[] {
  const now = engine.now();
  const keys: string[] = [];
  for (const seed of teams) {
    const accounts = Object.fromEntries(PLATFORMS.map((p) => [p, [] as AccountRec[]])) as Record<
      Platform,
      AccountRec[]
    >;
    for (const [platform, list] of Object.entries(seed.accounts ?? {})) {
      if (!isPlatform(platform)) throw new Error(`seed team '${seed.name}': unknown platform '${platform}'`);
      accounts[platform] = list.map((a, i) => ({
        authId: a.authId,
        label: a.label,
        isDefault: a.isDefault ?? (i === 0 && !list.some((other) => other.isDefault)),
      }));
    }
    const id = engine.newId(now);
    const team: TeamRec = {
      id,
      name: seed.name,
      plan: seed.plan ?? TEAM_DEFAULTS.plan,
      projectCap: seed.projectCap ?? TEAM_DEFAULTS.projectCap,
      balance: 0,
      accounts,
      customVoiceId: `voice_custom_${id.slice(-8)}`,
    };
    engine.store.teams.set(team.id, team);
    const credits = seed.credits ?? TEAM_DEFAULTS.credits;
    if (credits !== 0) {
      engine.addLedgerEntry(team, {
        credits,
        type: 'subscription_grant',
        description: `Plan '${team.plan}' credit grant`,
        at: now,
      });
    }
    for (const seeded of seed.keys) addKey(engine, team, seeded);
    keys.push(...seed.keys.map((k) => k.key));
  }
  return keys;
}

/** Gives `team` the API key `key`, with every scope unless `scopes` are named. */
export function addKey(
  engine: Engine,
  team: TeamRec,
  { key, scopes = SCOPES }: { key: string; scopes?: readonly string[] | undefined },
): void {
  if (key === '' || /\s/.test(key)) throw new Error('an API key must be non-empty without whitespace');
  if (engine.store.keys.has(key)) throw new Error(`API key ${key.slice(0, 12)}… is seeded twice`);
  const unknown = scopes.filter((s) => !isScope(s));
  if (unknown.length > 0)
    throw new Error(`unknown scope(s) ${unknown.join(', ')}; known: ${SCOPES.join(', ')}`);
  engine.store.keys.set(key, { key, teamId: team.id, scopes: scopes.filter(isScope), revoked: false });
}
