/** The shape every benchmark returns, how it is printed, and where it is written (bench/results/<name>.json). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';

export interface Metric {
  name: string;
  value: number;
  unit: string;
  /** The same quantity for the baseline measured in the same run. */
  baseline?: number;
  /** value / baseline. */
  ratio?: number;
  /** The target, in words ("≤ 1.2"). */
  target?: string;
  pass?: boolean;
  /** An invariant, not a performance target: `npm run bench` prints FAIL and exits non-zero when it is missed. */
  required?: boolean;
}

export interface BenchResult {
  name: string;
  title: string;
  /** False when the benchmark could not run (e.g. the adapter does not exist yet); `notes` says why. */
  measured: boolean;
  /** What the ratios compare against. */
  baseline: string;
  metrics: Metric[];
  notes: string[];
  durationMs: number;
  /** Anything else worth keeping (per-run details). */
  details?: Record<string, unknown>;
}

export function metric(
  name: string,
  value: number,
  unit: string,
  extra: { baseline?: number; target?: string; pass?: boolean; required?: boolean } = {},
): Metric {
  const out: Metric = { name, value: tidy(value), unit };
  if (extra.baseline !== undefined) {
    out.baseline = tidy(extra.baseline);
    out.ratio =
      extra.baseline === 0 || !Number.isFinite(extra.baseline)
        ? Number.NaN
        : Math.round((value / extra.baseline) * 1000) / 1000;
  }
  if (extra.target !== undefined) out.target = extra.target;
  if (extra.pass !== undefined) out.pass = extra.pass;
  if (extra.required) out.required = true;
  return out;
}

const tidy = (v: number): number => (Number.isFinite(v) ? Math.round(v * 1000) / 1000 : v);

export function environment(): Record<string, unknown> {
  return {
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    platform: process.platform,
  };
}

export function writeResult(dir: string, result: BenchResult): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${result.name}.json`);
  const body = { ...result, at: new Date().toISOString(), environment: environment() };
  writeFileSync(path, `${JSON.stringify(body, replacer, 2)}\n`);
  return path;
}

/** JSON has no NaN: write it as null. */
const replacer = (_key: string, value: unknown) =>
  typeof value === 'number' && !Number.isFinite(value) ? null : value;

const fmt = (v: number | undefined): string =>
  v === undefined ? '' : Number.isFinite(v) ? String(v) : 'n/a';

/** A plain-text table of every result, one row per metric. */
export function table(results: readonly BenchResult[]): string {
  const rows: string[][] = [['benchmark', 'metric', 'value', 'unit', 'baseline', 'ratio', 'target', 'ok']];
  for (const r of results) {
    if (!r.measured) {
      rows.push([r.name, 'NOT MEASURED', '', '', '', '', '', '']);
      continue;
    }
    for (const m of r.metrics) {
      rows.push([
        r.name,
        m.name,
        fmt(m.value),
        m.unit,
        fmt(m.baseline),
        fmt(m.ratio),
        m.target ?? '',
        m.pass === undefined ? '' : m.pass ? 'yes' : 'NO',
      ]);
    }
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
