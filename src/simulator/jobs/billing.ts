import type { Engine } from '../engine.js';
import { ApiError } from '../errors.js';
import type { TeamRec } from '../records.js';

/**
 * Whether the team may create one more video project costing `cost` credits: the plan cap is checked
 * first (403 usage_limit_reached), then the balance (402 insufficient_credits). Nothing is changed.
 */
export function refusalFor(engine: Engine, team: TeamRec, cost: number): ApiError | undefined {
  const projects = engine.projectCount(team.id);
  if (projects >= team.projectCap) {
    return new ApiError(
      403,
      'usage_limit_reached',
      `Plan cap reached: the team has ${projects} of ${team.projectCap} video projects allowed on plan '${team.plan}'; delete videos or upgrade`,
    );
  }
  if (team.balance < cost) {
    return new ApiError(
      402,
      'insufficient_credits',
      `Insufficient credits: this costs ${cost} credits and the balance is ${team.balance}`,
    );
  }
  return undefined;
}

/** Records a spend (negative ledger entry of type `spending`) against a video. */
export function chargeForVideo(
  engine: Engine,
  team: TeamRec,
  charge: { credits: number; description: string; videoId: string; at: number },
): void {
  engine.addLedgerEntry(team, {
    credits: -charge.credits,
    type: 'spending',
    description: charge.description,
    at: charge.at,
    videoId: charge.videoId,
  });
}
