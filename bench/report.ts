/**
 * Prints the latest results (bench/results/*.json) as the Markdown table docs/performance.md carries:
 *   npx tsx bench/report.ts
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult, Metric } from './lib/result.js';

const DIR = join(import.meta.dirname, 'results');
const ORDER = ['ack-latency', 'poller-scale', 'rate-budget', 'cold-start'];
const results = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as BenchResult & { at: string })
  .sort((a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name));

const cell = (v: number | null | undefined) => (v === null || v === undefined ? '' : String(v));
const ok = (m: Metric) => (m.pass === undefined ? '' : m.pass ? 'yes' : '**no**');
const lines = [
  '| benchmark | metric | value | baseline | ratio | target | met |',
  '|---|---|---|---|---|---|---|',
];
for (const r of results) {
  if (!r.measured) {
    lines.push(`| ${r.name} | not measured | | | | | |`);
    continue;
  }
  for (const m of r.metrics) {
    lines.push(
      `| ${r.name} | ${m.name} | ${cell(m.value)} ${m.unit} | ${cell(m.baseline)} | ${cell(m.ratio)} | ${m.target ?? ''} | ${ok(m)} |`,
    );
  }
}
process.stdout.write(`${lines.join('\n')}\n\nRuns: ${results.map((r) => `${r.name} ${r.at}`).join('; ')}\n`);
