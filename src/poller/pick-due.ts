/**
 * Which of the due watches a pass takes: up to the room it has, and no more of one owner's (one key's) than
 * its per-owner limit allows with what already runs, so one team's backlog does not hide the others'.
 */
import type { UserAddress, Watch } from '../core/ports/index.js';

export function pickDue(
  due: readonly Watch[],
  limits: { room: number; perOwner: number; running: ReadonlyMap<UserAddress, number> },
): { picked: Watch[]; held: number } {
  const picked: Watch[] = [];
  const perOwner = new Map(limits.running);
  let held = 0;
  for (const watch of due) {
    if (picked.length >= limits.room) break;
    const running = perOwner.get(watch.owner) ?? 0;
    if (running >= limits.perOwner) {
      held++;
      continue;
    }
    perOwner.set(watch.owner, running + 1);
    picked.push(watch);
  }
  return { picked, held };
}
