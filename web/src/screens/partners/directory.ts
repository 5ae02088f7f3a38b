import {
  type PartnerDirectoryRow,
  type PartnerStatus,
  partnerStatusShown,
  type RuntimeStatus,
  revSharePercent,
} from '@paydesk/domain/contracts/partners';

/** The account fields of a directory row (the row without its group). */
export type DirectoryAccountFields = Omit<
  PartnerDirectoryRow,
  'groupname' | 'groupid' | 'bank' | 'profile' | 'processor' | 'effectivedate'
>;
export type DirectoryGroup = Pick<
  PartnerDirectoryRow,
  'groupname' | 'groupid' | 'bank' | 'profile' | 'processor' | 'effectivedate'
>;

/** One account of the search reading, with its groups in the order the server sent them. */
export interface DirectoryAccount {
  account: DirectoryAccountFields;
  groups: DirectoryGroup[];
  /** The rows it takes of a page: one per group, one for an account without groups. */
  rows: number;
}

/**
 * The server's account-group rows as accounts, in the order each account first appears. A row whose group
 * fields are all empty is an account without groups.
 */
export function groupByAccount(rows: readonly PartnerDirectoryRow[]): DirectoryAccount[] {
  const byId = new Map<string, DirectoryAccount>();
  for (const row of rows) {
    const { groupname, groupid, bank, profile, processor, effectivedate, ...account } = row;
    let entry = byId.get(row.accountid);
    if (!entry) {
      entry = { account, groups: [], rows: 0 };
      byId.set(row.accountid, entry);
    }
    if (groupid !== null || groupname !== null) {
      entry.groups.push({ groupname, groupid, bank, profile, processor, effectivedate });
    }
  }
  for (const entry of byId.values()) entry.rows = Math.max(1, entry.groups.length);
  return [...byId.values()];
}

/**
 * Spec §2.4: pages of at most `rowsPerPage` rows made of whole accounts. An account that would overflow the
 * page starts the next one; an account larger than a page has a page of its own.
 */
export function pageAccounts(
  accounts: readonly DirectoryAccount[],
  rowsPerPage: number,
): DirectoryAccount[][] {
  const pages: DirectoryAccount[][] = [];
  let page: DirectoryAccount[] = [];
  let used = 0;
  for (const account of accounts) {
    if (page.length > 0 && used + account.rows > rowsPerPage) {
      pages.push(page);
      page = [];
      used = 0;
    }
    page.push(account);
    used += account.rows;
  }
  if (page.length > 0) pages.push(page);
  return pages;
}

/**
 * The export sheet's row of an account (spec §3 partner export sheet): its group IDs comma-joined and the
 * first (earliest) effective date of its groups.
 */
export function exportRow(entry: DirectoryAccount): Record<string, unknown> {
  const ids = entry.groups.flatMap((g) => (g.groupid ? [g.groupid] : []));
  const dates = entry.groups.flatMap((g) => (g.effectivedate ? [g.effectivedate.slice(0, 10)] : [])).sort();
  return { ...entry.account, groupids: ids.join(','), effectivedate: dates[0] ?? null };
}

export const STATUS_COLOR: Record<PartnerStatus, string> = {
  Active: 'green',
  Inactive: 'yellow',
  Dead: 'red',
};

/** Spec §4: Active green, Inactive yellow, any other value Dead in red. */
export function statusBadge(status: string | null | undefined): { label: PartnerStatus; color: string } {
  const label = partnerStatusShown(status);
  return { label, color: STATUS_COLOR[label] };
}

/** Spec §9: dates on the Partners screen are cut to the first 10 characters. */
export const day10 = (value: string | null | undefined): string => (value ? value.slice(0, 10) : '—');

/** A stored fraction (0.8) as the percentage the input edits ('80'); two decimals at most. */
export function percentText(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined) return '';
  return String(Math.round(fraction * 10_000) / 100);
}

/** A stored fraction as shown in a cell: 0.825 → '82.5%'. */
export const percentShown = (fraction: number | null | undefined): string =>
  fraction === null || fraction === undefined ? '—' : `${percentText(fraction)}%`;

/**
 * A rev share as typed, checked by the same rule the server applies: the percentage to send and the fraction
 * it will be stored as, or the message to show.
 */
export function parseRevShare(
  text: string,
): { ok: true; percent: number; fraction: number } | { ok: false; message: string } {
  const parsed = revSharePercent.safeParse(text);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? 'Not a rev share' };
  return { ok: true, percent: parsed.data, fraction: Math.round(parsed.data * 100) / 10_000 };
}

/** The Salesforce import as the screen shows it (spec §4). */
export type ImportPhase = 'idle' | RuntimeStatus;

/**
 * The phase a poll answer puts the import in: the first item's runtime_status; an answer without one is a
 * failed poll, which the spec also treats as stopped.
 */
export function phaseOfPoll(answer: readonly { runtime_status: RuntimeStatus }[] | undefined): RuntimeStatus {
  return answer?.[0]?.runtime_status ?? 'stopped';
}
