import { type Money, parseMoney } from '../money';

/**
 * The resolutions of a returned debit (spec document 2 §4), chosen freely in any order. The spec announces 19
 * values and lists these 20; every listed one is accepted. It names the Esquire billing resolution after a
 * person it does not show ('({name})'); PayDesk keeps the resolution without the name.
 */
export const ACH_RESOLUTIONS = [
  'Used Reserve',
  'Used Reserve - PARTIAL',
  'Re-Ran Successfully',
  'Write Off',
  'Will Be Sent to Coll.',
  'Sent to Collections',
  'Billed to Esquire Merch Svcs',
  'Billed to ISO',
  'Cancels Out with DR/CR',
  'ETFshouldnothavebeencharged',
  'Fraud account',
  'hold all batches',
  'Notice of Correction',
  'Received a Check',
  'TR Investigation',
  'TSYS ERROR',
  'Under litigation',
  'Wire Received',
  'Write Off - Other',
  'Write Off - Waived',
] as const;
export type AchResolution = (typeof ACH_RESOLUTIONS)[number];
export const isAchResolution = (value: string): value is AchResolution =>
  (ACH_RESOLUTIONS as readonly string[]).includes(value);

/** The derived classification of a row (spec §4), shown in colour and filterable. */
export const ACH_CLASSIFICATIONS = ['NOC', 'resurrect', 'unresolved', 'reject closed'] as const;
export type AchClassification = (typeof ACH_CLASSIFICATIONS)[number];
/** Mantine colour of each classification on the screen. */
export const ACH_CLASSIFICATION_COLORS: Record<AchClassification, string> = {
  NOC: 'blue',
  resurrect: 'red',
  unresolved: 'yellow',
  'reject closed': 'green',
};

/** A merchant status on an ACH row: its account's state when the return was recorded. */
export const ACH_MERCHANT_STATUSES = ['Active', 'Closed'] as const;

/** What the classification reads from a row. Amounts are exact decimal strings (or numbers), null when empty. */
export interface ClassifiedRow {
  AddendaRelated: string | null;
  TransactionAmount: string | number | null;
  MerchantStatus: string | null;
  rejRes: string | null;
  writeOff: string | number | null;
  sentToColl: string | number | null;
}

const cents = (value: string | number | null | undefined): Money =>
  value === null || value === undefined || value === ''
    ? (0n as Money)
    : parseMoney(value, { round: 'half-up' });

/**
 * The classification, first rule that holds (spec §4):
 * - NOC: the addenda (the return code) starts with C and the amount is 0: a notification of change, no money.
 * - resurrect: the merchant is Active and rejRes is Write Off or Sent to Collections; or rejRes is
 *   'Used Reserve - PARTIAL' with a written-off or sent-to-collections sum above 0 (whatever the status, as the
 *   spec's sentence reads): money given up on a merchant who may still be collected from.
 * - unresolved: rejRes is empty or 'Will Be Sent to Coll.'.
 * - otherwise reject closed.
 */
export function achClassification(row: ClassifiedRow): AchClassification {
  const addenda = (row.AddendaRelated ?? '').trim().toUpperCase();
  if (addenda.startsWith('C') && cents(row.TransactionAmount) === 0n) return 'NOC';
  const res = row.rejRes === null ? '' : row.rejRes.trim();
  if (row.MerchantStatus === 'Active' && (res === 'Write Off' || res === 'Sent to Collections'))
    return 'resurrect';
  if (res === 'Used Reserve - PARTIAL' && cents(row.writeOff) + cents(row.sentToColl) > 0n)
    return 'resurrect';
  if (res === '' || res === 'Will Be Sent to Coll.') return 'unresolved';
  return 'reject closed';
}

/** What a row's rejection balance reads. */
export interface BalanceRow {
  TransactionAmount: string | number | null;
  usedRsv: string | number | null;
  reRan: string | number | null;
  sentToColl: string | number | null;
  writeOff: string | number | null;
}

/**
 * A row's rejection balance: what was recovered or settled (used from the reserve, re-ran, sent to collections,
 * written off) less the returned amount. Negative while part of the return is still open.
 */
export function rejectionBalance(row: BalanceRow): Money {
  return (cents(row.usedRsv) +
    cents(row.reRan) +
    cents(row.sentToColl) +
    cents(row.writeOff) -
    cents(row.TransactionAmount)) as Money;
}

/**
 * merchRejBal: the total rejection balance of a legal name, over every ACH row of its MIDs within the same ISO
 * (a partner's book is its own: PayDesk never sums another ISO's merchants into what a partner sees).
 */
export function merchantRejectionBalance(rows: Iterable<BalanceRow>): Money {
  let total = 0n;
  for (const row of rows) total += rejectionBalance(row);
  return total as Money;
}

/**
 * The Alert (spec §9): the legal name's rejection balance is negative while this MID's reserve balance is
 * positive and the legal name has more than one MID, so the reserve could cover what a sibling MID owes.
 */
export function achAlert(input: {
  merchRejBal: string | number;
  rsvBalance: string | number | null;
  legalNameMids: number;
}): boolean {
  return cents(input.merchRejBal) < 0n && cents(input.rsvBalance) > 0n && input.legalNameMids > 1;
}
