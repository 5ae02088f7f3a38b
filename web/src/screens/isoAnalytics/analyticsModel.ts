/** Where the chosen ISO/partner groups survive a reload (spec 2 §2.10: session storage). */
export const GROUPS_STORAGE_KEY = 'paydesk.isoanalytics.groups';

/**
 * The stored selection, or null when there is none or it cannot be read (not JSON, not a list of names):
 * an unreadable stored selection is discarded (spec 2 §8).
 */
export function parseStoredGroups(text: string | null): string[] | null {
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(raw) || !raw.every((g): g is string => typeof g === 'string' && g.trim() !== ''))
    return null;
  return [...new Set(raw)];
}

/** The stored names the server still lists; a partner no longer offered would make the call fail. */
export function listedGroups(selection: readonly string[], offered: readonly string[]): string[] {
  const known = new Set(offered);
  return selection.filter((g) => known.has(g));
}

export interface ApprovalPoint {
  partner: string;
  /** 'YYYY-MM' */
  month: string;
  count: number;
}

/** More lines than this cannot be told apart; the rest are summed into one. */
export const MAX_PARTNER_LINES = 10;

/**
 * The approvals chart's lines: one per partner over every month from the first to the last approval, a month
 * without approvals counting 0 (the partner brought no deal then; a gap would read as missing data). Past
 * `maxLines` partners, the partners with the most approvals keep their own line and the others are summed into
 * one "Other partners" line, so the chart stays readable with every partner chosen.
 */
export function approvalLines(
  points: readonly ApprovalPoint[],
  maxLines = MAX_PARTNER_LINES,
): {
  months: string[];
  lines: { name: string; values: number[] }[];
} {
  if (points.length === 0) return { months: [], lines: [] };
  const sorted = points.map((p) => p.month).sort();
  const months: string[] = [];
  for (let m = sorted[0] as string; m <= (sorted.at(-1) as string); m = nextMonth(m)) months.push(m);
  const index = new Map(months.map((m, i) => [m, i]));
  const byPartner = new Map<string, number[]>();
  for (const { partner, month, count } of points) {
    let values = byPartner.get(partner);
    if (!values) {
      values = months.map(() => 0);
      byPartner.set(partner, values);
    }
    const i = index.get(month) as number;
    values[i] = (values[i] ?? 0) + count;
  }
  const total = (values: number[]) => values.reduce((s, v) => s + v, 0);
  const ranked = [...byPartner].sort(([a, x], [b, y]) => total(y) - total(x) || a.localeCompare(b));
  const own = ranked.length > maxLines ? ranked.slice(0, maxLines - 1) : ranked;
  const rest = ranked.slice(own.length);
  const lines = own.sort(([a], [b]) => a.localeCompare(b)).map(([name, values]) => ({ name, values }));
  if (rest.length > 0)
    lines.push({
      name: `Other partners (${rest.length})`,
      values: months.map((_, i) => rest.reduce((s, [, values]) => s + (values[i] ?? 0), 0)),
    });
  return { months, lines };
}

/**
 * Legend labels of at most `max` characters. A long name keeps its beginning and its end with "…" between
 * ("Summit Payment … West" and "Summit Payment … East"), since partners of one family share their first words and
 * a label cut at the end would make them look alike. Names that would still read the same keep their full text.
 */
export function legendLabels(names: readonly string[], max = 24): Map<string, string> {
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  const short = (name: string) =>
    name.length <= max ? name : `${name.slice(0, head).trimEnd()}…${name.slice(-tail).trimStart()}`;
  const labels = new Map(names.map((name) => [name, short(name)]));
  const seen = new Map<string, number>();
  for (const label of labels.values()) seen.set(label, (seen.get(label) ?? 0) + 1);
  for (const [name, label] of labels) if ((seen.get(label) ?? 0) > 1) labels.set(name, name);
  return labels;
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/**
 * A colour per partner line. The spec's lines were randomly coloured; a fixed palette keeps a partner's colour
 * from one load to the next and keeps neighbours apart.
 */
const LINE_COLORS = [
  '#1c7ed6',
  '#e8590c',
  '#2f9e44',
  '#ae3ec9',
  '#f08c00',
  '#0c8599',
  '#e03131',
  '#5f3dc4',
  '#66a80f',
  '#c2255c',
  '#1098ad',
  '#495057',
];
export const lineColor = (index: number) => LINE_COLORS[index % LINE_COLORS.length] as string;
