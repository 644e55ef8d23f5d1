/**
 * What the database holds about flows that did not finish, for the failure message: the video's watches
 * (status, next look, lease) and the outbox rows of its conversation (status, attempts, error). Read straight
 * from PostgreSQL, as an operator would look.
 */
import { TEAM } from '../../slack/world.js';
import { withClient } from '../../support/postgres.js';
import type { FlowOutcome } from './flows.js';

export async function diagnose(databaseUrl: string, flows: FlowOutcome[]): Promise<string> {
  const stuck = flows.filter((f) => !f.done);
  if (stuck.length === 0) return '';
  return await withClient(databaseUrl, async (db) => {
    const now = Date.now();
    const lines: string[] = [];
    for (const f of stuck.slice(0, 5)) {
      const conversation = `slack:${TEAM}:${f.member.channel}`;
      lines.push(`flow ${f.member.n} (${f.videoId ?? 'no video'}) in ${conversation}: ${f.error ?? ''}`);
      lines.push(`  steps (ms from its start): ${JSON.stringify(f.at)}; trace: ${f.trace.join(' | ')}`);
      const watches = await db.query<Record<string, unknown>>(
        `SELECT id, kind, target, status, next_check_at, lease_holder, lease_until, left(state::text, 300) AS state
           FROM watches WHERE conversation = $1 OR target = $2 ORDER BY created_at`,
        [conversation, f.videoId ?? ''],
      );
      for (const w of watches.rows) {
        const rel = (t: unknown) =>
          typeof t === 'number' ? `${Math.round((t - now) / 1000)} s from now` : t;
        lines.push(
          `  watch ${w.kind} ${w.target} ${w.status}, next look ${rel(w.next_check_at)}, lease ${w.lease_holder ?? '-'} until ${rel(w.lease_until)}: ${w.state}`,
        );
      }
      const outbox = await db.query<Record<string, unknown>>(
        `SELECT id, status, attempts, not_before, error, dedupe_key, left(item::text, 160) AS item
           FROM outbox WHERE item::text LIKE $1 ORDER BY id`,
        [`%${conversation}%`],
      );
      for (const o of outbox.rows)
        lines.push(
          `  outbox ${o.id} ${o.status} attempts ${o.attempts} not before ${Math.round((Number(o.not_before) - now) / 1000)} s from now ${o.error ?? ''} key ${o.dedupe_key}: ${o.item}`,
        );
    }
    return lines.join('\n');
  });
}

/** The outbox rows still pending, oldest first: what they are, how often they were tried, when they are due. */
export async function pendingOutbox(databaseUrl: string): Promise<string> {
  return await withClient(databaseUrl, async (db) => {
    const now = Date.now();
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT id, platform, dedupe_key, attempts, not_before, created_at, error, left(item::text, 300) AS item
         FROM outbox WHERE status = 'pending' ORDER BY id LIMIT 10`,
    );
    return rows
      .map(
        (o) =>
          `outbox ${o.id} (${o.platform}, key ${o.dedupe_key}) pending: attempts ${o.attempts}, created ${Math.round((now - Number(o.created_at)) / 1000)} s ago, not before ${Math.round((Number(o.not_before) - now) / 1000)} s from now, error ${o.error ?? '-'}: ${o.item}`,
      )
      .join('\n');
  });
}
