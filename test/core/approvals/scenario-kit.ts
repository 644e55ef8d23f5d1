/**
 * What the approval scenario tables share: the cast's policy set-up through `settings`, and readers of what a
 * channel shows. Each table (`scenarios*.ts`) builds on these; `scenarios.ts` registers them all.
 */
import { expect } from 'vitest';
import type { ButtonRef, Channel, Person, Reply, ScenarioDriver, ShownCard } from './driver.js';

export const MINUTE = 60_000;
export const SCRIPT = 'A short script about the launch of our new product, told in three beats.';
export const APPROVAL_TITLE =
  /^(Approval needed|Approved|Approved, not done|Rejected|Expired|Replaced|Withdrawn|Not done|Changes requested): /;

export interface ApprovalScenario {
  name: string;
  run(d: ScenarioDriver): Promise<void>;
}

// ——— helpers ———

/**
 * The team policy, set through the `settings` command by alice (a workspace admin) like a team would: for the
 * whole workspace, or with `here` as a tightening of one channel.
 */
export async function setup(
  d: ScenarioDriver,
  o: {
    policy?: 'publish' | 'spend';
    approvers?: Person[] | 'reviewers';
    self?: boolean;
    threshold?: number;
    channel?: Channel;
    here?: boolean;
  } = {},
): Promise<void> {
  const as = { user: 'alice' as const, channel: o.channel ?? 'main' };
  const lines = [`settings role admin ${d.mention('alice')}`, `settings approval ${o.policy ?? 'publish'}`];
  const approvers = o.approvers ?? ['bob', 'carol'];
  lines.push(
    `settings approvers ${approvers === 'reviewers' ? d.groups.mention('reviewers') : approvers.map((p) => d.mention(p)).join(' ')}`,
  );
  if (o.self) lines.push('settings self-approval on');
  if (o.threshold !== undefined) lines.push(`settings spend-threshold ${o.threshold}`);
  for (const line of lines) {
    const r = await d.run(as, o.here ? `${line} --here` : line);
    expect(r.card?.title, `${line}: ${r.card?.text}`).toBe(
      o.here ? 'Channel settings updated' : 'Workspace settings updated',
    );
  }
}

export const text = (r: Reply): string => `${r.card?.title ?? ''}\n${r.card?.text ?? ''}`;

export function button(card: ShownCard | undefined, action: string): ButtonRef {
  const found = card?.buttons.find((b) => b.action === action);
  if (!found) throw new Error(`no ${action} button on ${JSON.stringify(card)}`);
  return found;
}

/** Approval cards of a channel, oldest first. */
export async function approvalCards(d: ScenarioDriver, channel: Channel = 'main'): Promise<ShownCard[]> {
  return (await d.cards(channel)).filter((c) => APPROVAL_TITLE.test(c.title));
}

export async function lastApproval(d: ScenarioDriver, channel: Channel = 'main'): Promise<ShownCard> {
  const cards = await approvalCards(d, channel);
  const last = cards[cards.length - 1];
  if (!last) throw new Error(`no approval card in ${channel}: ${JSON.stringify(await d.cards(channel))}`);
  return last;
}

/** alice asks to publish `videoId` to YouTube; the approval card it posted. */
export async function askToPublish(
  d: ScenarioDriver,
  videoId: string,
  as: Person = 'alice',
): Promise<ShownCard> {
  const sent = await d.run(as, `publish ${videoId} youtube`);
  expect(sent.card?.title, text(sent)).toBe('Sent for approval');
  return lastApproval(d);
}
