import fs from 'node:fs';
import path from 'node:path';

/**
 * Prints bench runs at several scales side by side (scripts/bench.sh runs demo, large and, with
 * BENCH_SCALES=demo,large,xl, xl with BENCH_RESULTS set): each question's p95 (or a job's seconds) at every
 * scale given, and the ratio of each scale to the one before, so a reader sees which calls grow with the data.
 * `npx tsx server/bench/compare.ts <demo.json> <large.json> [<xl.json>]`, smallest scale first; a scale is
 * named by its file (results-<scale>.json).
 */
interface Result {
  table: string;
  label: string;
  p95?: string;
  seconds?: string;
}
interface Run {
  name: string;
  merchants: number;
  isos: number;
  results: Result[];
}

const files = process.argv.slice(2);
if (files.length < 2) throw new Error('usage: compare.ts <demo.json> <large.json> [<xl.json> …]');
const runs: Run[] = files.map((file) => ({
  name: path.basename(file, '.json').replace(/^results-/, ''),
  ...(JSON.parse(fs.readFileSync(file, 'utf8')) as Omit<Run, 'name'>),
}));

/** The figure of a result in ms (p95) or s (a job), and its unit. */
function figure(r: Result | undefined): { value: number; unit: string } | undefined {
  if (!r) return undefined;
  if (r.p95 !== undefined) return { value: Number.parseFloat(r.p95), unit: 'ms' };
  if (r.seconds !== undefined) return { value: Number.parseFloat(r.seconds), unit: 's' };
  return undefined;
}

const key = (r: Result) => `${r.table}\u0000${r.label}`;
const byKey = runs.map((run) => new Map(run.results.map((r) => [key(r), r])));
const largest = runs.at(-1) as Run;
const rows = largest.results.flatMap((r) => {
  const figures = byKey.map((m) => figure(m.get(key(r))));
  if (!figures.at(-1)) return [];
  const row: Record<string, string> = {
    question: `${r.table.replace(/ \(.*$/, '')}: ${r.label}`.slice(0, 110),
  };
  runs.forEach((run, i) => {
    const f = figures[i];
    row[`${run.name} (${run.merchants} merchants)`] = f ? `${f.value.toFixed(1)} ${f.unit}` : '—';
    const before = figures[i - 1];
    const prior = runs[i - 1];
    if (prior) {
      row[`${run.name} ÷ ${prior.name}`] =
        f && before && before.value > 0 ? `${(f.value / before.value).toFixed(1)}×` : '—';
    }
  });
  return [row];
});
const growth = runs
  .slice(1)
  .map(
    (run, i) =>
      `${run.name} ${(run.merchants / (runs[i] as Run).merchants).toFixed(1)}× ${(runs[i] as Run).name}`,
  )
  .join(', ');
console.log(
  `\nThe same questions at ${runs.length} scales (p95, or seconds for a job); merchants: ${growth}`,
);
console.table(rows);
