import fs from 'node:fs';

/**
 * Prints two bench runs side by side (scripts/bench.sh runs the demo and the large scale with BENCH_RESULTS set):
 * each question's p95 (or a job's seconds) at both scales and large ÷ demo, so a reader sees which calls grow with
 * the data. `npx tsx server/bench/compare.ts <demo.json> <large.json>`.
 */
interface Result {
  table: string;
  label: string;
  p95?: string;
  seconds?: string;
}
interface Run {
  merchants: number;
  isos: number;
  results: Result[];
}

const [smallFile, largeFile] = process.argv.slice(2);
if (!smallFile || !largeFile) throw new Error('usage: compare.ts <demo.json> <large.json>');
const small = JSON.parse(fs.readFileSync(smallFile, 'utf8')) as Run;
const large = JSON.parse(fs.readFileSync(largeFile, 'utf8')) as Run;

/** The figure of a result in ms (p95) or s (a job), and its unit. */
function figure(r: Result | undefined): { value: number; unit: string } | undefined {
  if (!r) return undefined;
  if (r.p95 !== undefined) return { value: Number.parseFloat(r.p95), unit: 'ms' };
  if (r.seconds !== undefined) return { value: Number.parseFloat(r.seconds), unit: 's' };
  return undefined;
}

const key = (r: Result) => `${r.table}\u0000${r.label}`;
const smallByKey = new Map(small.results.map((r) => [key(r), r]));
const rows = large.results.flatMap((r) => {
  const big = figure(r);
  const little = figure(smallByKey.get(key(r)));
  if (!big) return [];
  return [
    {
      question: `${r.table.replace(/ \(.*$/, '')}: ${r.label}`.slice(0, 110),
      [`demo (${small.merchants} merchants)`]: little ? `${little.value.toFixed(1)} ${little.unit}` : '—',
      [`large (${large.merchants} merchants)`]: `${big.value.toFixed(1)} ${big.unit}`,
      'large ÷ demo': little && little.value > 0 ? `${(big.value / little.value).toFixed(1)}×` : '—',
    },
  ];
});
console.log(
  `\nThe same questions at two scales (p95, or seconds for a job): ${(large.merchants / small.merchants).toFixed(0)}× the merchants`,
);
console.table(rows);
