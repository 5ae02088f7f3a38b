import {
  type PciBillingColumn,
  type PciCommissionColumn,
  type PciMerchantColumn,
  type PciOldMerchantColumn,
  pciBillingTable,
  pciCommissionsTable,
  pciMerchantsTable,
  pciOldMerchantsTable,
} from '@paydesk/domain';
import { sql } from 'kysely';
import { decryptPii } from '../../platform/pii';
import type { TableSource } from '../../platform/tableQuery';

/**
 * The four PCI tables (the domain definitions are the whitelist). T/R and DDA are stored encrypted: for most
 * users the column is the masked form made from the stored last four; for historic-merchant editors it is the
 * stored value, decrypted as the row leaves (`present`).
 */

const MASKED_ROUTING = `(case when p.aba_last4 is null then null else '•••••' || p.aba_last4 end)`;
const MASKED_ACCOUNT = `(case when p.dda_last4 is null then null else '••••' || p.dda_last4 end)`;
const clear = (stored: unknown) => (typeof stored === 'string' ? decryptPii(stored) : null);

const merchantJoins = 'join merchants m on m.id = p.merchant_id join partners pa on pa.id = p.partner_id';
const COMPLIANCE = `(case when p.pci_compliant then 'Compliant' else 'Non-Compliant' end)`;

/** Merchants open for PCI billing; `reveal`: T/R and DDA in clear. */
export function merchantsSource(reveal: boolean): TableSource<PciMerchantColumn> {
  return {
    def: pciMerchantsTable,
    expressions: {
      mid: 'p.mid',
      // The merchant's DBA as kept on the PCI row (2026_12_01_0010): filtered, searched and sorted by its index.
      dba_name: 'p.dba',
      iso_name: 'pa.account_name',
      merchant_profile: 'm.profile',
      open_date: 'm.opened_on',
      pci_compliant: COMPLIANCE,
      achieved_date: 'p.achieved_date',
      due_date: 'p.due_date',
      billing_type: 'p.billing_type',
      pci_fee: 'p.pci_fee',
      pci_noncomp_fee: 'p.pci_noncomp_fee',
      tr: reveal ? 'p.aba_number' : MASKED_ROUTING,
      dda: reveal ? 'p.dda_number' : MASKED_ACCOUNT,
    },
    // The open merchants as a derived table, so the whole-table count below needs no join.
    from: `(select * from pci_merchants where merchant_status = '') p`,
    // The merchant's and the ISO's columns are joined only when a request filters, searches or sorts by one of
    // them; otherwise the page and its count are found in pci_merchants alone (the Non-Compliant filter counts
    // 15,000 rows at the large scale, each of which was joined to its merchant and ISO to be counted). The DBA is
    // on the PCI row itself, so a DBA filter or search is one of those.
    lookup: {
      join: merchantJoins,
      columns: ['iso_name', 'merchant_profile', 'open_date'],
      key: 'p.merchant_id',
    },
    searchable: ['mid', 'dba_name'],
    tiebreak: 'p.merchant_id',
    ...(reveal ? { present: { tr: clear, dda: clear } } : {}),
    // Each ISO's open merchants per compliance, kept by a trigger (2026_12_08_0060_pci_compliance_counts): the
    // first page and its sorts count a few thousand rows instead of every open merchant, and a page filtered by
    // compliance alone counts the rows of that kind instead of every matching merchant.
    unfiltered: sql<
      Record<string, string> & { n: number }
    >`select coalesce(sum(merchants), 0)::int as n from pci_open_compliance`,
    rollups: [
      {
        from: 'pci_open_compliance p',
        expressions: { pci_compliant: COMPLIANCE },
        count: 'p.merchants',
        totals: {},
      },
    ],
  };
}

const billingExpressions = {
  mid: 'b.mid',
  dba_name: 'm.dba',
  iso_name: 'pa.account_name',
  merchant_profile: 'm.profile',
  open_date: 'm.opened_on',
  billing_flag: 'b.billing_flag',
} as const;
/**
 * The merchant's and the ISO's columns, joined only when a request filters, searches or sorts by one of them:
 * otherwise a month's count and totals are summed from its billing rows alone (49,000 at the large scale, each
 * joined to its merchant and ISO to be counted: 42 ms a page, 68 for commissions; docs/bench.md).
 */
const billingLookup = <Id extends string>(columns: readonly Id[]) => ({
  join: 'join merchants m on m.id = b.merchant_id join partners pa on pa.id = b.partner_id',
  columns,
  key: 'b.id',
});

/**
 * A month's rows counted and totalled per ISO, billing type and rev share, kept by a trigger
 * (2026_12_10_0020_pci_billing_totals): a page with no filter, or filtered by billing type alone, counts and
 * totals those few thousand rows. The routes' conditions (the month; a rev share in effect) read its
 * columns as they read the billing rows'.
 */
const billingTotals = {
  from: 'pci_billing_totals b',
  base: true,
  expressions: { billing_flag: 'b.billing_flag' },
  count: 'b.billed_rows',
} as const;

/** A month's billing rows (the month is the route's fixed condition). */
export const billingSource: TableSource<PciBillingColumn> = {
  def: pciBillingTable,
  expressions: {
    ...billingExpressions,
    created_date: 'b.created_date',
    processed_date: 'b.processed_date',
    amount: 'b.amount',
  },
  from: 'pci_billing b',
  lookup: billingLookup(['dba_name', 'iso_name', 'merchant_profile', 'open_date']),
  searchable: ['mid', 'dba_name'],
  tiebreak: 'b.id',
  rollups: [{ ...billingTotals, totals: { amount: 'b.amount' } }],
};

/** A month's commissions: its billing rows of ISOs that had a rev share in effect on the billing date. */
export const commissionsSource: TableSource<PciCommissionColumn> = {
  def: pciCommissionsTable,
  expressions: {
    ...billingExpressions,
    date_billed: 'b.created_date',
    iso_rev_share: 'b.iso_rev_share',
    iso_cost: 'b.iso_cost',
    amount_billed: 'b.amount',
    amount_due: 'b.amount_due',
  },
  from: 'pci_billing b',
  lookup: billingLookup(['dba_name', 'iso_name', 'merchant_profile']),
  searchable: ['mid', 'dba_name', 'iso_name'],
  tiebreak: 'b.id',
  rollups: [
    {
      ...billingTotals,
      totals: { iso_cost: 'b.iso_cost', amount_billed: 'b.amount', amount_due: 'b.amount_due' },
    },
  ],
};

/**
 * How many PCI rows of closed merchants there are (the Old Merchants tab without a filter, GetHistoricMerchants'
 * rows): the sum of each ISO's count, kept by a trigger (2026_12_09_0040_pci_merchant_closed).
 */
export const closedMerchantsCount = sql<
  Record<string, string> & { n: number }
>`select coalesce(sum(merchants), 0)::int as n from pci_closed_counts`;

/** Old merchants: those whose merchant account closed, with their PCI status. */
export function oldMerchantsSource(reveal: boolean): TableSource<PciOldMerchantColumn> {
  return {
    def: pciOldMerchantsTable,
    expressions: {
      mid: 'p.mid',
      // The merchant's DBA as kept on the PCI row (2026_12_01_0010).
      dba_name: 'p.dba',
      iso_name: 'pa.account_name',
      merchant_status: 'p.merchant_status',
      aba_number: reveal ? 'p.aba_number' : MASKED_ROUTING,
      dda_number: reveal ? 'p.dda_number' : MASKED_ACCOUNT,
    },
    // The PCI rows of closed merchants, as each row keeps it (2026_12_09_0040_pci_merchant_closed): found by their
    // partial index, with no merchant joined to test its status.
    from: '(select * from pci_merchants where merchant_closed) p',
    // The ISO's name is joined only when a request filters, searches or sorts by it.
    lookup: {
      join: 'join partners pa on pa.id = p.partner_id',
      columns: ['iso_name'],
      key: 'p.merchant_id',
    },
    searchable: ['mid', 'dba_name'],
    tiebreak: 'p.merchant_id',
    // Each ISO's count of them, kept by a trigger: the tab without a filter counts those rows.
    unfiltered: closedMerchantsCount,
    ...(reveal ? { present: { aba_number: clear, dda_number: clear } } : {}),
  };
}
