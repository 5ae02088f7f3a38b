import {
  addMonths,
  FIN_AVERAGE_MONTHS,
  FIN_CHART_DEFAULT_FROM,
  FIN_CHART_DEFAULT_TO,
  FIN_CHART_ZOOM_FROM,
  FIN_GROUPS,
  type FinGroup,
  type FinGroupOptions,
  finFilters,
  formatMoney,
  monthLabel,
  NOT_SPECIFIED,
  parseMoney,
} from '@paydesk/domain';

/** The selected values of every filter group, as the API takes them (null: 'Not Specified'). */
export interface FinSelection {
  profile: Array<string | null>;
  bank: Array<string | null>;
  omonth: number[];
  oyear: number[];
  mcc: Array<string | null>;
  partner: Array<string | null>;
}

export const EMPTY_SELECTION: FinSelection = {
  profile: [],
  bank: [],
  omonth: [],
  oyear: [],
  mcc: [],
  partner: [],
};

/** Where the selection survives a reload (spec document 1 §2: session storage). */
export const SELECTION_STORAGE_KEY = 'paydesk.financial.filters';

export function serializeSelection(selection: FinSelection): string {
  return JSON.stringify(selection);
}

/**
 * The stored selection, or null when there is none or it cannot be read (not JSON, a wrong shape, values
 * out of range): spec §8 says an unreadable stored filter is discarded silently.
 */
export function parseSelection(text: string | null): FinSelection | null {
  if (text === null) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = finFilters.safeParse(raw);
  return parsed.success ? { ...EMPTY_SELECTION, ...parsed.data } : null;
}

export const selectionCount = (s: FinSelection) => FIN_GROUPS.reduce((n, g) => n + s[g].length, 0);

// ---------------------------------------------------------------- filter options

/** The option value standing for null ('Not Specified'): a select works on strings. */
const NULL_KEY = '\u0000not-specified';

export const keyOf = (value: string | number | null) => (value === null ? NULL_KEY : String(value));

export interface FilterOption {
  value: string;
  label: string;
}

const MONTH_NAMES = Array.from({ length: 12 }, (_, i) =>
  new Date(Date.UTC(2000, i, 1)).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' }),
);
export const monthName = (n: number) => MONTH_NAMES[n - 1] ?? String(n);

/** Each group's values as the server lists them. */
function valuesOf(group: FinGroup, options: FinGroupOptions): Array<string | number | null> {
  switch (group) {
    case 'profile':
      return options.profile.map((o) => o.Merchant_Profile);
    case 'bank':
      return options.bank.map((o) => o.Bank);
    case 'omonth':
      return options.omonth.map((o) => o.open_month);
    case 'oyear':
      return options.oyear.map((o) => o.open_year);
    case 'mcc':
      return options.mcc.map((o) => o.MCC);
    case 'partner':
      return options.partner.map((o) => o.Partner_Name);
  }
}

/** A group's choices: null as 'Not Specified', months by name, MCCs as "code – description". */
export function groupOptions(group: FinGroup, options: FinGroupOptions): FilterOption[] {
  const descriptions = new Map(options.descript.map((d) => [d.Code, d.Description]));
  return valuesOf(group, options).map((value) => {
    let label: string;
    if (value === null) label = NOT_SPECIFIED;
    else if (group === 'omonth') label = monthName(Number(value));
    else if (group === 'mcc') {
      const description = descriptions.get(String(value));
      label = description ? `${value} – ${description}` : String(value);
    } else label = String(value);
    return { value: keyOf(value), label };
  });
}

/** The selected option values of one group back to what the API takes. */
export function withGroupKeys(selection: FinSelection, group: FinGroup, keys: string[]): FinSelection {
  const values = keys.map((k) => (k === NULL_KEY ? null : k));
  if (group === 'omonth' || group === 'oyear')
    return { ...selection, [group]: values.filter((v) => v !== null).map(Number) };
  return { ...selection, [group]: values };
}

export const groupKeys = (selection: FinSelection, group: FinGroup) => selection[group].map(keyOf);

/**
 * Keeps only values the server still lists: a stored selection can outlive a partner or an MCC, and the
 * server refuses unknown values.
 */
export function pruneSelection(selection: FinSelection, options: FinGroupOptions): FinSelection {
  const out = { ...selection };
  for (const group of FIN_GROUPS) {
    const known = new Set(valuesOf(group, options).map(keyOf));
    const kept = groupKeys(selection, group).filter((k) => known.has(k));
    Object.assign(out, withGroupKeys(out, group, kept));
  }
  return out;
}

export function sameSelection(a: FinSelection, b: FinSelection): boolean {
  return serializeSelection(a) === serializeSelection(b);
}

// ---------------------------------------------------------------- averaging period and chart window

/** The averaging period: null for the last 12 months, or a month ('YYYY-MM-01') clicked on the chart. */
export type SelectedMonth = string | null;

/** A bar click selects its month; clicking the selected month again goes back to the 12-month average. */
export const toggleMonth = (selected: SelectedMonth, clicked: string): SelectedMonth =>
  selected === clicked ? null : clicked;

/** The months the averages cover: the 12 whole months before the current one, or the selected month alone. */
export function averageWindow(selected: SelectedMonth, current: string): { start: string; end: string } {
  if (selected) return { start: selected, end: selected };
  return { start: addMonths(current, -FIN_AVERAGE_MONTHS), end: addMonths(current, -1) };
}

export function averageHeader(selected: SelectedMonth): string {
  return selected ? `${monthLabel(selected)} Average:` : `${FIN_AVERAGE_MONTHS} Month Average:`;
}

/** How far back the monthly chart reaches: two years, so panning has a year before the averaging window. */
export const CHART_MONTHS_BACK = 24;
export const chartStart = (current: string) => addMonths(current, -CHART_MONTHS_BACK);

/**
 * The chart's zoom window over the series, as bar indices. It opens on 5 months to 1 month before now
 * (spec §9). "Zoom range is limited to the last 4 months to now" is read as the narrowest zoom: a window
 * spans at least as many months as from 4 months back to now (4 steps, 5 bars), so zooming in never
 * leaves fewer bars than the default view; panning and zooming out reach the whole series.
 */
export function chartWindow(months: readonly string[], current: string) {
  const at = (offset: number) => {
    const index = months.indexOf(addMonths(current, offset));
    return index < 0 ? (offset < 0 ? 0 : months.length - 1) : index;
  };
  return {
    startValue: at(FIN_CHART_DEFAULT_FROM),
    endValue: at(FIN_CHART_DEFAULT_TO),
    minValueSpan: -FIN_CHART_ZOOM_FROM,
  };
}

// ---------------------------------------------------------------- figures

export type Measure = 'Volume' | 'Transactions' | 'Income';
export const MEASURES: readonly Measure[] = ['Volume', 'Transactions', 'Income'];

const scaled = (value: number, divisor: number) => {
  const v = value / divisor;
  const digits = Math.abs(v) >= 100 || v === Math.trunc(v) ? 0 : 1;
  return v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
};

/**
 * Axis ticks: plain numbers in the unit the axis names (AXIS_UNITS): volume in $ millions, transactions and
 * income in thousands (spec §2). No "K"/"M" suffix, which beside a unit title read as thousands of thousands.
 */
export function axisLabel(measure: Measure, value: number): string {
  if (value === 0) return '0';
  return scaled(value, measure === 'Volume' ? 1_000_000 : 1_000);
}

/**
 * A bar's exact value, for the tooltip: the API's decimal string, or the chart's number of it (which reads
 * back as the same decimal), through the money module.
 */
export function valueLabel(measure: Measure, value: number | string): string {
  if (measure === 'Transactions') return Number(value).toLocaleString('en-US');
  return formatMoney(parseMoney(value, { round: 'half-up' }), { currency: true });
}

/** What each measure is, for its tab and tooltip: the dashboard's income is the merchants' net income. */
export const MEASURE_LABELS: Record<Measure, string> = {
  Volume: 'Volume',
  Transactions: 'Transactions',
  Income: 'Net income',
};

/** What the axis is in, for its title. */
export const AXIS_UNITS: Record<Measure, string> = {
  Volume: 'Volume, $ millions',
  Transactions: 'Transactions, thousands',
  Income: 'Net income, $ thousands',
};

/**
 * The filtered merchants' average as a percentage of the average over all merchants; null when there is none.
 * It compares two averages, not a part with its whole, so a selection of busier-than-average merchants
 * reads above 100 %.
 */
export function shareOfAll(filtered: number, all: number): number | null {
  if (!Number.isFinite(filtered) || !Number.isFinite(all) || all <= 0) return null;
  return Math.round((filtered / all) * 100);
}
