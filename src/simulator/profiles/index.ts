import type { SimulatorProfile } from '../options.js';
import { type ApiProfile, specProfile } from './profile.js';
import { realProfile } from './real.js';

export type { ApiProfile } from './profile.js';

/** The profile of that name; anything else is a programming error. */
export function profileNamed(name: SimulatorProfile): ApiProfile {
  if (name === 'spec') return specProfile;
  if (name === 'real') return realProfile;
  throw new Error(`unknown simulator profile '${String(name)}'; use 'spec' or 'real'`);
}
