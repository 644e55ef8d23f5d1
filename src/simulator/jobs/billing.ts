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
      'usage_limit_reached',
      `Plan cap reached: the team has ${projects} of ${team.projectCap} video projects allowed on plan '${team.plan}'; delete videos or upgrade`,
    );
  }
  if (team.balance < cost) {
    return new ApiError(
      'insufficient_credits',
      `Insufficient credits: this costs ${cost} credits and the balance is ${team.balance}`,
    );
  }
  return undefined;
}

/**
 * A declined charge (knob `paymentFailureRate`): 402 payment_failed, nothing charged or created. Draws from
 * the noise stream every time, so the ids and failure draws of the other streams never shift.
 */
export function paymentRefusal(engine: Engine, cost: number): ApiError | undefined {
  const declined = engine.rng.noise.chance(engine.knobs.paymentFailureRate);
  if (!declined || cost === 0) return undefined;
  return new ApiError(
    'payment_failed',
    `Payment failed: the charge of ${cost} credits was declined; nothing was charged or created`,
  );
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
