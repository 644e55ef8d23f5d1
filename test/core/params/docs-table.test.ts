/**
 * docs/commands.md lists every command and every option a member can give (nothing out of reach
 * is also nothing undocumented): each command has a row naming each of its non-hidden flags, in the
 * everyday or the more column as its declaration marks it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../../src/core/commands/index.js';

const doc = readFileSync(new URL('../../../docs/commands.md', import.meta.url), 'utf8');
const rows = doc.split('\n').filter((line) => line.startsWith('| `'));
const specs = MODULES.flatMap((m) => m.commands ?? []);

describe('docs/commands.md', () => {
  it.each(specs.map((s) => [s.name, s] as const))('documents `%s` and its options', (name, spec) => {
    const row = rows.find((r) => r.startsWith(`| \`${name} `) || r.startsWith(`| \`${name}\``));
    expect(row, `no row for ${name}`).toBeDefined();
    const cells = (row ?? '').split(' | ');
    const [everyday, more] = [cells[2] ?? '', cells[3] ?? ''];
    for (const option of spec.options.filter((o) => !o.hidden && !o.positional)) {
      const column = option.advanced ? more : everyday;
      expect(column, `${name} --${option.name}`).toContain(`\`--${option.name}\``);
    }
  });
});
