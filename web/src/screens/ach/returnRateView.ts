import {
  type FilterState,
  RETURN_RATE_THRESHOLDS,
  type ReturnRateKind,
  type ReturnRateLevel,
  type ReturnRateRow,
} from '@paydesk/domain';

/** A rate as the panel shows it: 0.0123 → '1.23 %'; '—' without entries to divide by. */
export function formatRate(rate: number | null): string {
  if (rate === null) return '—';
  return `${(rate * 100).toFixed(2)} %`;
}

/** A threshold as the panel's headers show it: 0.005 → '0.5 %'. */
export function thresholdLabel(kind: ReturnRateKind): string {
  return `${Number((RETURN_RATE_THRESHOLDS[kind] * 100).toFixed(2))} %`;
}

export function rateOf(row: ReturnRateRow, kind: ReturnRateKind): number | null {
  switch (kind) {
    case 'unauthorized':
      return row.unauthorizedRate;
    case 'administrative':
      return row.administrativeRate;
    case 'overall':
      return row.overallRate;
  }
}

/**
 * The table's filters that show a panel row's returns: its MID (or its ISO) and the entry dates of the window
 * the rates are counted over. Other filters go, so what the table then shows is that originator's returns.
 */
export function rateRowFilters(
  level: ReturnRateLevel,
  row: ReturnRateRow,
  window: { from: string; to: string },
): FilterState[] {
  const who: FilterState =
    level === 'merchant'
      ? { id: 'IndividualIdentificationNumber', kind: 'text', value: row.mid ?? row.key }
      : { id: 'GroupLevel1Name', kind: 'text', value: row.iso };
  return [who, { id: 'EffectiveEntryDATE', kind: 'dateRange', from: window.from, to: window.to }];
}
