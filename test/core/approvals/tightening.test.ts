/**
 * The tightening rules as pure functions: a combined rule never admits anyone either input refuses,
 * `everyone` only comes from everyone, and documents written before `everyone` was a value read as they meant.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holds, storedHolders, stricterHolders } from '../../../src/core/approvals/holders.js';
import {
  defaultPolicy,
  fromStored,
  tighten,
  tighteningOf,
} from '../../../src/core/approvals/workspace-policy.js';
import {
  DEFAULT_CHANNEL_SETTINGS,
  type Holders,
  type WorkspacePolicy,
} from '../../../src/core/ports/index.js';

const PEOPLE = ['slack:T1:UA', 'slack:T1:UB', 'slack:T1:UC', 'slack:T1:UD', 'slack-group:S1'];
const list = fc.uniqueArray(fc.constantFrom(...PEOPLE), { maxLength: PEOPLE.length });
const holders: fc.Arbitrary<Holders> = fc.oneof(fc.constant('everyone' as const), list);
const policy: fc.Arbitrary<WorkspacePolicy> = fc.record({
  approval: fc.constantFrom('off' as const, 'publish' as const, 'spend' as const),
  approvers: list,
  selfApproval: fc.boolean(),
  spendThreshold: fc.nat(200),
  roles: fc.record({ publish: holders, spend: holders, admin: holders }),
});
/** Who a rule admits among the cast (a member of the group S1 included). */
const admitted = (h: Holders) =>
  PEOPLE.filter((p) => p.startsWith('slack:') && holds(h, p, p === 'slack:T1:UD' ? ['slack-group:S1'] : []));

describe('tightening: never looser than either rule', () => {
  it('stricterHolders admits only whom both admit, and everyone only from two everyones', () => {
    fc.assert(
      fc.property(holders, holders, (a, b) => {
        const both = stricterHolders(a, b);
        for (const p of admitted(both)) {
          expect(admitted(a)).toContain(p);
          expect(admitted(b)).toContain(p);
        }
        expect(both === 'everyone').toBe(a === 'everyone' && b === 'everyone');
      }),
    );
  });

  it('two lists with nobody in common admit nobody, never everyone', () => {
    expect(stricterHolders(['slack:T1:UA'], ['slack:T1:UB'])).toEqual([]);
    expect(admitted(stricterHolders(['slack:T1:UA'], ['slack:T1:UB']))).toEqual([]);
  });

  it('a workspace policy tightened by another (a Discord DM under two servers) is stricter than both', () => {
    fc.assert(
      fc.property(policy, policy, (a, b) => {
        const t = tighten(a, b);
        for (const role of ['publish', 'spend', 'admin'] as const) {
          for (const p of admitted(t.roles[role])) {
            expect(admitted(a.roles[role])).toContain(p);
            expect(admitted(b.roles[role])).toContain(p);
          }
          if (t.roles[role] === 'everyone')
            expect([a.roles[role], b.roles[role]]).toEqual(['everyone', 'everyone']);
        }
        expect(t.spendThreshold).toBeLessThanOrEqual(Math.min(a.spendThreshold, b.spendThreshold));
        expect(t.selfApproval).toBe(a.selfApproval && b.selfApproval);
        // Approvers: both name some, only the common ones; one names none, the other's.
        if (a.approvers.length > 0 && b.approvers.length > 0)
          for (const p of t.approvers) expect(a.approvers.includes(p) && b.approvers.includes(p)).toBe(true);
      }),
    );
  });

  it("a channel's list tightens the workspace's; a later workspace list with nobody in common leaves nobody", () => {
    const ws = { ...defaultPolicy(), roles: { ...defaultPolicy().roles, publish: ['slack:T1:UB'] } };
    expect(tighten(ws, { roles: { publish: ['slack:T1:UD'] } }).roles.publish).toEqual([]);
    expect(tighten(defaultPolicy(), { roles: { publish: ['slack:T1:UD'] } }).roles.publish).toEqual([
      'slack:T1:UD',
    ]);
    expect(tighten(defaultPolicy(), {}).roles.publish).toBe('everyone');
  });
});

describe('stored documents from before `everyone` was a value', () => {
  it('read an empty role list as everyone, a named one as written', () => {
    expect(storedHolders([])).toBe('everyone');
    expect(storedHolders(undefined)).toBe('everyone');
    expect(storedHolders(['slack:T1:UA'])).toEqual(['slack:T1:UA']);
    const legacy = { ...defaultPolicy(), roles: { publish: [], spend: ['slack:T1:UA'], admin: [] } };
    expect(fromStored(legacy).roles).toEqual({
      publish: 'everyone',
      spend: ['slack:T1:UA'],
      admin: 'everyone',
    });
  });

  it("a legacy channel row's empty role lists set no rule; named ones are its tightening", () => {
    const row = {
      ...DEFAULT_CHANNEL_SETTINGS,
      roles: { publish: [] as string[], spend: ['slack:T1:UA'], admin: [] as string[] },
    };
    expect(tighteningOf(row)).toEqual({ roles: { spend: ['slack:T1:UA'] } });
    expect(tighteningOf({ ...DEFAULT_CHANNEL_SETTINGS, here: { roles: { publish: [] } } })).toEqual({});
  });
});
