/** The video API simulator: a faithful in-memory implementation of video-api.md served over HTTP. */
export { type Clock, ManualClock, systemClock } from './clock.js';
export {
  DEFAULT_KNOBS,
  demoTeam,
  generateApiKey,
  type Knobs,
  type SeedAccount,
  type SeedTeam,
  type SimulatorOptions,
  type SimulatorProfile,
} from './options.js';
export { type RunningSimulator, startSimulator } from './server.js';
export { type LedgerEntry, type PublishedPost, type ReceivedRequest, Simulator } from './simulator.js';
