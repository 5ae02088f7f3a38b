/**
 * Return-rate monitoring (PayDesk's addition to the spec, after the NACHA Operating Rules): over the last 60
 * days, a merchant's (or an ISO's) returned debits divided by the ACH debit entries it originated, in three
 * families, each against its NACHA threshold. Returns are counted by the entry date of the returned debit, so
 * they fall in the same days as the entries they are divided by. Notifications of change (C codes) are not
 * returns and count nowhere.
 */

export const RETURN_RATE_WINDOW_DAYS = 60;

export const UNAUTHORIZED_RETURN_CODES = ['R05', 'R07', 'R10', 'R11', 'R29', 'R51'] as const;
export const ADMINISTRATIVE_RETURN_CODES = ['R02', 'R03', 'R04'] as const;

export const RETURN_RATE_KINDS = ['unauthorized', 'administrative', 'overall'] as const;
export type ReturnRateKind = (typeof RETURN_RATE_KINDS)[number];

/** A rate above its threshold (strictly: NACHA's "exceeds") puts the originator over it. */
export const RETURN_RATE_THRESHOLDS: Record<ReturnRateKind, number> = {
  unauthorized: 0.005,
  administrative: 0.03,
  overall: 0.15,
};

export type ReturnFamily = 'unauthorized' | 'administrative' | 'other';

/** The family of a return code, or null when it is not a return (a notification of change). */
export function returnFamily(code: string | null | undefined): ReturnFamily | null {
  const c = (code ?? '').trim().toUpperCase();
  if (!/^R\d\d$/.test(c)) return null;
  if ((UNAUTHORIZED_RETURN_CODES as readonly string[]).includes(c)) return 'unauthorized';
  if ((ADMINISTRATIVE_RETURN_CODES as readonly string[]).includes(c)) return 'administrative';
  return 'other';
}

/** The days counted for `asOf` (YYYY-MM-DD): the 60 days ending with it, both ends included. */
export function returnRateWindow(asOf: string): { from: string; to: string } {
  const day = new Date(`${asOf}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - (RETURN_RATE_WINDOW_DAYS - 1));
  return { from: day.toISOString().slice(0, 10), to: asOf };
}

export interface ReturnCounts {
  /** ACH debit entries originated in the window. */
  entries: number;
  /** Every return (R code) of those entries. */
  returns: number;
  unauthorized: number;
  administrative: number;
}

export interface ReturnRates {
  /** Fractions (0.005 is 0.5 %); null without entries to divide by. */
  unauthorizedRate: number | null;
  administrativeRate: number | null;
  overallRate: number | null;
  /** The kinds whose rate is above the threshold, in the order of RETURN_RATE_KINDS. */
  over: ReturnRateKind[];
}

export function returnRates(counts: ReturnCounts): ReturnRates {
  const rate = (n: number) => (counts.entries > 0 ? n / counts.entries : null);
  const rates = {
    unauthorized: rate(counts.unauthorized),
    administrative: rate(counts.administrative),
    overall: rate(counts.returns),
  };
  return {
    unauthorizedRate: rates.unauthorized,
    administrativeRate: rates.administrative,
    overallRate: rates.overall,
    over: RETURN_RATE_KINDS.filter((k) => {
      const r = rates[k];
      return r !== null && r > RETURN_RATE_THRESHOLDS[k];
    }),
  };
}

/**
 * How far over its worst threshold an originator is: the largest rate ÷ threshold (above 1 is over). The panel
 * lists the most severe first.
 */
export function returnRateSeverity(rates: ReturnRates): number {
  return Math.max(
    0,
    ...RETURN_RATE_KINDS.map((k) => {
      const r =
        k === 'unauthorized'
          ? rates.unauthorizedRate
          : k === 'administrative'
            ? rates.administrativeRate
            : rates.overallRate;
      return r === null ? 0 : r / RETURN_RATE_THRESHOLDS[k];
    }),
  );
}
