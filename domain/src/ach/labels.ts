import { MONTH_NAMES } from '../months';

/**
 * How ACH return codes and company entry descriptions are shown (spec document 2 §9). The rows keep the codes
 * as the bank file carries them; the screen and the filters show these labels. The XLSX export writes the codes
 * themselves, as the bank file and the NACHA tables name them, so a workbook can be matched against the file.
 */

/**
 * Return reason codes (R) and notification-of-change codes (C) with their names. The spec gives the names of
 * R01–R10, R15 and R16; for R11, R13, R20, R23, R28, R29, R31, R51, C01, C02, C03 and C05 it says only that
 * they are mapped, so these carry their NACHA names.
 */
export const RETURN_CODE_NAMES = {
  R01: 'NSF',
  R02: 'Acct Closed',
  R03: 'No Acct',
  R04: 'Invalid Acct #',
  R05: 'Unauthorized Debit',
  R06: 'Returned per ODFI Request',
  R07: 'Authorization Revoked',
  R08: 'Payment Stopped',
  R09: 'Uncollected Funds',
  R10: 'Unauthorized',
  R11: 'Entry Not in Accordance with Authorization',
  R13: 'Invalid ACH Routing #',
  R15: 'Beneficiary Deceased',
  R16: 'Acct Frozen',
  R20: 'Non-Transaction Acct',
  R23: 'Credit Entry Refused by Receiver',
  R28: 'Routing # Check Digit Error',
  R29: 'Corporate Customer Advises Not Authorized',
  R31: 'Permissible Return Entry',
  R51: 'RCK Entry Ineligible or Improper',
  C01: 'Incorrect DFI Acct #',
  C02: 'Incorrect Routing #',
  C03: 'Incorrect Routing # and DFI Acct #',
  C05: 'Incorrect Transaction Code',
} as const;
export type ReturnCode = keyof typeof RETURN_CODE_NAMES;
export const RETURN_CODES = Object.keys(RETURN_CODE_NAMES) as ReturnCode[];

/** 'R01 NSF'; a code PayDesk does not know is shown as it came. */
export function returnCodeLabel(code: string | null | undefined): string {
  if (!code) return '';
  const name = (RETURN_CODE_NAMES as Record<string, string>)[code.trim().toUpperCase()];
  return name ? `${code.trim().toUpperCase()} ${name}` : code;
}

/**
 * Company entry descriptions (the NACHA batch header's ten characters) of the debits PayDesk originates, with
 * their labels. FEES is the monthly fee debit: its label names the month the fees are for (see below).
 */
export const ENTRY_DESCRIPTION_LABELS = {
  DEPOSIT: 'Deposit',
  'NEG DEP': 'Negative Deposit',
  'CHBK REV': 'CHBK Reversal',
  CHARGEBACK: 'Chargeback',
  'DAILY DISC': 'Daily Disc',
  'DAILY INT': 'Daily Int',
  'RSV FUND': 'Reserve Funding',
  LOOKUP: 'Look Up',
  'RSV REL': 'Rsv Released',
  '2ND ATTMPT': '2nd attempt',
  'CB FEE': 'Chargeback Fee',
  FEES: '{Month} Fees',
} as const;
export type EntryDescription = keyof typeof ENTRY_DESCRIPTION_LABELS;
export const ENTRY_DESCRIPTIONS = Object.keys(ENTRY_DESCRIPTION_LABELS) as EntryDescription[];
export const MONTHLY_FEES_DESCRIPTION = 'FEES' satisfies EntryDescription;
/** Fees are debited early in the month after the one they are for: the month is the entry date's less 15 days. */
export const FEES_MONTH_OFFSET_DAYS = 15;

/** The month the fees debited on `entryDate` (YYYY-MM-DD) are for: 'October' for 2026-11-03. */
export function feesMonth(entryDate: string): string {
  const day = new Date(`${entryDate.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return '';
  day.setUTCDate(day.getUTCDate() - FEES_MONTH_OFFSET_DAYS);
  return MONTH_NAMES[day.getUTCMonth()] ?? '';
}

/**
 * The label of an entry description: 'Daily Disc'; the monthly fees as '{Month} Fees' (without an entry date,
 * 'Monthly Fees'); a description PayDesk does not know as it came.
 */
export function entryDescriptionLabel(code: string | null | undefined, entryDate?: string | null): string {
  if (!code) return '';
  const key = code.trim().toUpperCase();
  if (key === MONTHLY_FEES_DESCRIPTION) {
    const month = entryDate ? feesMonth(entryDate) : '';
    return `${month || 'Monthly'} Fees`;
  }
  return (ENTRY_DESCRIPTION_LABELS as Record<string, string>)[key] ?? code;
}
