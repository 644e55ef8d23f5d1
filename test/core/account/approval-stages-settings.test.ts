/**
 * `settings approval stages`, `settings approvers --stage` and `settings approval any|all --stage` (DESIGN §5):
 * the workspace's stages, each with its approvers and rule, shown on the settings card and audited; a channel
 * cannot change them, and `off` (or one name) is the single implicit stage again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mention } from '../../../src/core/text/text.js';
import { cardOf, createWorld, textOf, type World } from './world.js';

describe('approval stages in settings', () => {
  let w: World;
  afterEach(async () => w.close());

  const field = async (label: string) =>
    cardOf(await w.run('settings')).fields?.find((f) => f.label === label)?.value;

  it('names stages, their approvers and rule; the card shows them; each change is audited', async () => {
    w = await createWorld();
    await w.run('settings role admin @alice');
    await w.run('settings approval publish');
    await w.run('settings approvers @bob');
    const staged = await w.run('settings approval stages brand, Legal');
    expect(cardOf(staged).title, textOf(staged)).toBe('Workspace settings updated');
    expect(textOf(staged)).toContain('Approval stages: brand → legal.');
    expect(textOf(await w.run('settings approvers @carol @dave --stage legal'))).toContain(
      `Approvers of the **legal** stage: ${mention('playground:W1:carol')}, ${mention('playground:W1:dave')}.`,
    );
    expect(textOf(await w.run('settings approval all --stage legal'))).toContain(
      'At the **legal** stage, **every** listed approver must approve.',
    );
    expect((await w.store.policies.get('playground:W1'))?.stages).toEqual([
      { name: 'brand' },
      { name: 'legal', approvers: ['playground:W1:carol', 'playground:W1:dave'], all: true },
    ]);
    expect(await field('Stages')).toBe(
      `brand: any of ${mention('playground:W1:bob')} → legal: all of ${mention('playground:W1:carol')}, ${mention('playground:W1:dave')}`,
    );

    const audited = (await w.store.audit.list({ workspacePrefix: 'playground:W1', limit: 50 }))
      .filter((e) => e.action === 'settings.change')
      .map((e) => e.details);
    expect(audited).toEqual(
      expect.arrayContaining([
        { setting: 'approval stages', from: 'one stage', to: 'brand,legal', scope: 'workspace' },
        {
          setting: 'approvers --stage legal',
          from: 'general approvers',
          to: 'playground:W1:carol playground:W1:dave',
          scope: 'workspace',
        },
        { setting: 'approval --stage legal', from: 'any', to: 'all', scope: 'workspace' },
      ]),
    );

    // Renaming keeps what a stage that stays had; one name is the single implicit stage again.
    await w.run('settings approval stages legal,brand');
    expect((await w.store.policies.get('playground:W1'))?.stages?.[0]).toMatchObject({
      name: 'legal',
      all: true,
    });
    expect(textOf(await w.run('settings approval stages legal'))).toContain('Approval has **one stage**');
    expect((await w.store.policies.get('playground:W1'))?.stages).toBeUndefined();
    expect(await field('Stages')).toBeUndefined();
  });

  it('refuses an unknown stage, a bad rule, stages in a channel, and --stage on another key', async () => {
    w = await createWorld();
    await w.run('settings role admin @alice');
    expect(textOf(await w.run('settings approval all --stage legal'))).toContain(
      'Approvals have no stages yet',
    );
    await w.run('settings approval stages brand,legal');
    for (const [text, words] of [
      ['settings approvers @bob --stage lega', 'There is no stage `lega`: the stages are `brand`, `legal`.'],
      ['settings approval most --stage legal', '`approval --stage` takes `any` or `all`, not `most`.'],
      ['settings approval stages brand,brand', '`approval stages` takes stage names separated by commas'],
      ['settings approval stages brand --here', 'Stages and their approvers are set for the whole workspace'],
      ['settings approvers @bob --stage legal --here', 'Stages and their approvers are set for the whole'],
      ['settings lifetime 2h --stage legal', 'goes with'],
    ] as const) {
      expect(textOf(await w.run(text)), text).toContain(words);
    }
    expect((await w.store.policies.get('playground:W1'))?.stages).toEqual([
      { name: 'brand' },
      { name: 'legal' },
    ]);
  });
});
