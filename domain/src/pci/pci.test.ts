import { describe, expect, it } from 'vitest';
import { type Money, money } from '../money';
import {
  amountDue,
  billFor,
  billingTypeOf,
  type ExceptionFilter,
  feesOf,
  filterMatches,
  type PciConfig,
  type PciMerchantFacts,
  revShareOn,
  validateFeeExceptions,
  validateFrequencyExceptions,
} from './billing';
import { filterSourceRequest, operatorsFor, PCI_FILTERS, PCI_MESSAGES } from './codes';
import { achName, type NachaFileOptions, nachaFile, validRoutingNumber } from './nacha';

const m = (cents: number) => money(cents);

const merchant = (over: Partial<PciMerchantFacts> = {}): PciMerchantFacts => ({
  mid: '5100000001',
  iso_name: 'Summit Payments',
  group_id: 'G100',
  merchant_profile: 'Traditional',
  mcc: '5812',
  state: 'TX',
  sponsor_bank: 'CBCAL',
  open_date: '2024-03-15',
  pci_compliant: true,
  due_date: '2026-07-01',
  ...over,
});

const config = (over: Partial<PciConfig> = {}): PciConfig => ({
  defaultFrequency: 'MTF',
  defaultFees: {
    MTF: { amount: m(1995), isoCost: m(500) },
    ANF: { amount: m(11900), isoCost: m(3000) },
    NCF: { amount: m(3995), isoCost: m(1000) },
  },
  feeGroups: [],
  frequencyGroups: [],
  ...over,
});

const f = (filterId: number, operatorId: number, ...values: string[]): ExceptionFilter => ({
  filterId,
  operatorId,
  values,
});

describe('filter operators', () => {
  it('In matches any of the values, case-insensitively', () => {
    expect(filterMatches(merchant(), f(1, 1, 'Other ISO', 'summit payments'))).toBe(true);
    expect(filterMatches(merchant(), f(1, 1, 'Other ISO'))).toBe(false);
  });
  it('Not In matches none of the values; a merchant without the field is Not In everything and In nothing', () => {
    expect(filterMatches(merchant(), f(5, 2, 'CA', 'NY'))).toBe(true);
    expect(filterMatches(merchant(), f(5, 2, 'tx'))).toBe(false);
    expect(filterMatches(merchant({ state: null }), f(5, 2, 'TX'))).toBe(true);
    expect(filterMatches(merchant({ state: null }), f(5, 1, 'TX'))).toBe(false);
  });
  it('Before is strictly earlier; On or After includes the day', () => {
    expect(filterMatches(merchant(), f(7, 3, '2024-03-16'))).toBe(true);
    expect(filterMatches(merchant(), f(7, 3, '2024-03-15'))).toBe(false);
    expect(filterMatches(merchant(), f(7, 4, '2024-03-15'))).toBe(true);
    expect(filterMatches(merchant(), f(7, 4, '2024-03-16'))).toBe(false);
  });
  it('Between includes both ends', () => {
    expect(filterMatches(merchant(), f(7, 5, '2024-03-15', '2024-03-15'))).toBe(true);
    expect(filterMatches(merchant(), f(7, 5, '2024-01-01', '2024-03-14'))).toBe(false);
    expect(filterMatches(merchant(), f(7, 5, '2024-03-16', '2024-12-31'))).toBe(false);
  });
  it('an operator of the wrong type, or an unknown filter or operator, matches nothing', () => {
    expect(filterMatches(merchant(), f(1, 3, '2030-01-01'))).toBe(false);
    expect(filterMatches(merchant(), f(7, 1, '2024-03-15'))).toBe(false);
    expect(filterMatches(merchant(), f(99, 1, 'x'))).toBe(false);
    expect(filterMatches(merchant(), f(1, 99, 'Summit Payments'))).toBe(false);
  });
  it('each filter field is tested', () => {
    const facts = merchant();
    for (const filter of PCI_FILTERS) {
      if (filter.field_type === 'date') continue;
      const value = facts[filter.field] as string;
      expect(filterMatches(facts, f(filter.id, 1, value)), filter.alias).toBe(true);
      expect(filterMatches(facts, f(filter.id, 1, `${value}x`)), filter.alias).toBe(false);
    }
  });
  it('offers list operators for non-date fields and date operators for dates', () => {
    expect(operatorsFor(1).map((o) => o.alias)).toEqual(['In', 'Not In']);
    expect(operatorsFor(7).map((o) => o.alias)).toEqual(['Before', 'On or After', 'Between']);
    expect(operatorsFor(999)).toEqual([]);
  });
});

describe('billing type and fees', () => {
  it('uses the default billing type and fees when no exception matches', () => {
    const fees = feesOf(merchant(), config());
    expect(fees).toEqual({
      billingType: 'MTF',
      program: { amount: m(1995), isoCost: m(500) },
      skipped: false,
      nonCompliance: { amount: m(3995), isoCost: m(1000) },
    });
  });
  it('takes the first matching frequency exception, in group order', () => {
    const c = config({
      frequencyGroups: [
        { frequency: 'ANF', filters: [f(5, 1, 'CA')] },
        { frequency: 'ANF', filters: [f(1, 1, 'Summit Payments'), f(3, 1, 'Traditional')] },
        { frequency: 'MTF', filters: [f(1, 1, 'Summit Payments')] },
      ],
    });
    expect(billingTypeOf(merchant(), c)).toBe('ANF');
    // Every filter of a group must match.
    expect(billingTypeOf(merchant({ merchant_profile: 'PayLo' }), c)).toBe('MTF');
    expect(billingTypeOf(merchant({ iso_name: 'Else' }), c)).toBe('MTF');
  });
  it('takes the first matching fee exception of the billing type; other flags do not apply', () => {
    const c = config({
      feeGroups: [
        { flag: 'ANF', amount: m(9900), isoCost: m(0), filters: [f(1, 1, 'Summit Payments')] },
        { flag: 'MTF', amount: m(1500), isoCost: m(200), filters: [f(5, 1, 'TX')] },
        { flag: 'MTF', amount: m(1000), isoCost: m(100), filters: [f(1, 1, 'Summit Payments')] },
        { flag: 'NCF', amount: m(5000), isoCost: m(700), filters: [f(6, 1, 'CBCAL')] },
      ],
    });
    const fees = feesOf(merchant(), c);
    expect(fees.program).toEqual({ amount: m(1500), isoCost: m(200) });
    expect(fees.nonCompliance).toEqual({ amount: m(5000), isoCost: m(700) });
    const annual = feesOf(merchant(), { ...c, defaultFrequency: 'ANF' });
    expect(annual.program).toEqual({ amount: m(9900), isoCost: m(0) });
  });
  it('SMF skips the monthly program fee when it is the first match, and not the annual one', () => {
    const c = config({
      feeGroups: [
        { flag: 'SMF', amount: m(0), isoCost: m(0), filters: [f(3, 1, 'Traditional')] },
        { flag: 'MTF', amount: m(1000), isoCost: m(100), filters: [f(1, 1, 'Summit Payments')] },
      ],
    });
    expect(feesOf(merchant(), c)).toMatchObject({ skipped: true, program: { amount: m(0) } });
    expect(billFor(merchant(), c, '2026-11')).toBeNull();
    // Non-compliant merchants still pay the non-compliance fee.
    expect(billFor(merchant({ pci_compliant: false }), c, '2026-11')).toEqual({
      flag: 'NCF',
      amount: m(3995),
      isoCost: m(1000),
    });
    // An MTF exception before it wins.
    const mtfFirst = { ...c, feeGroups: [...c.feeGroups].reverse() };
    expect(billFor(merchant(), mtfFirst, '2026-11')).toEqual({
      flag: 'MTF',
      amount: m(1000),
      isoCost: m(100),
    });
    const annual = { ...c, defaultFrequency: 'ANF' as const };
    expect(feesOf(merchant(), annual).skipped).toBe(false);
  });
});

describe('what a month bills', () => {
  it('bills a compliant monthly merchant the program fee every month', () => {
    for (const month of ['2026-01', '2026-07', '2026-11-01'])
      expect(billFor(merchant(), config(), month)).toEqual({ flag: 'MTF', amount: m(1995), isoCost: m(500) });
  });
  it('bills a non-compliant merchant the non-compliance fee every month, whatever its billing type', () => {
    const c = config({ defaultFrequency: 'ANF' });
    expect(billFor(merchant({ pci_compliant: false }), c, '2026-02')).toEqual({
      flag: 'NCF',
      amount: m(3995),
      isoCost: m(1000),
    });
  });
  it('bills an annual merchant in its due-date month only (the opening month without a due date)', () => {
    const c = config({ defaultFrequency: 'ANF' });
    expect(billFor(merchant(), c, '2026-07')).toEqual({ flag: 'ANF', amount: m(11900), isoCost: m(3000) });
    expect(billFor(merchant(), c, '2026-06')).toBeNull();
    expect(billFor(merchant({ due_date: null }), c, '2026-03')?.flag).toBe('ANF');
    expect(billFor(merchant({ due_date: null }), c, '2026-07')).toBeNull();
  });
  it('bills nothing for a zero fee', () => {
    const c = config({ defaultFees: { ...config().defaultFees, MTF: { amount: m(0), isoCost: m(0) } } });
    expect(billFor(merchant(), c, '2026-11')).toBeNull();
  });
});

describe('commissions', () => {
  const shares = [
    { iso_name: 'Summit Payments', rev_share: '20.00', effective_date: '2025-01-01' },
    { iso_name: 'Summit Payments', rev_share: '25.50', effective_date: '2026-06-01' },
    { iso_name: 'Other', rev_share: '90.00', effective_date: '2020-01-01' },
  ];
  it('uses the rev share in effect on the billing date', () => {
    expect(revShareOn(shares, 'Summit Payments', '2026-05-31')?.rev_share).toBe('20.00');
    expect(revShareOn(shares, 'Summit Payments', '2026-06-01')?.rev_share).toBe('25.50');
    expect(revShareOn(shares, 'Summit Payments', '2024-12-31')).toBeNull();
    expect(revShareOn(shares, 'Nobody', '2026-06-01')).toBeNull();
  });
  it('is billed × rev share − ISO cost, rounded half up once', () => {
    // 19.95 × 25.5 % = 5.08725 → 5.09; minus 5.00.
    expect(amountDue(m(1995), '25.50', m(500))).toBe(m(9));
    // 39.95 × 20 % = 7.99; minus 10.00: the ISO owes 2.01.
    expect(amountDue(m(3995), '20.00', m(1000))).toBe(m(-201));
    // 0.05 × 50 % = 0.025 → 0.03.
    expect(amountDue(m(5), '50', m(0))).toBe(m(3));
  });
});

describe('exception validation', () => {
  const feeRow = {
    fee_flag: 'MTF',
    amount: '15.00',
    iso_cost: 0,
    filter_id: 1,
    filter_value: 'Summit Payments|Other',
    filter_operator_id: 1,
  };
  it('refuses any empty field of any row with the spec’s message', () => {
    for (const field of Object.keys(feeRow)) {
      for (const empty of [null, undefined, '', '  ']) {
        const result = validateFeeExceptions([[feeRow], [{ ...feeRow, [field]: empty }]]);
        expect(result, `${field}=${String(empty)}`).toEqual({ ok: false, message: PCI_MESSAGES.emptyFields });
      }
    }
    // A fee of 0 is a real amount; a frequency of 0 counts as missing.
    expect(validateFeeExceptions([[{ ...feeRow, amount: 0 }]]).ok).toBe(true);
    const freqRow = { frequency: 'ANF', filter_id: 5, filter_value: 'TX', filter_operator_id: 1 };
    expect(validateFrequencyExceptions([[freqRow]]).ok).toBe(true);
    for (const field of Object.keys(freqRow))
      for (const empty of [0, '0', null, ''])
        expect(validateFrequencyExceptions([[{ ...freqRow, [field]: empty }]])).toEqual({
          ok: false,
          message: PCI_MESSAGES.emptyFields,
        });
  });
  it('parses groups in order, values split on | and trimmed, empty groups dropped', () => {
    const result = validateFeeExceptions([
      [feeRow, { ...feeRow, filter_id: 7, filter_operator_id: 5, filter_value: ' 2020-01-01 | 2021-12-31 ' }],
      [],
      [
        {
          ...feeRow,
          fee_flag: 'SMF',
          amount: '0',
          filter_id: '3',
          filter_operator_id: '2',
          filter_value: 'PayLo',
        },
      ],
    ]);
    expect(result).toEqual({
      ok: true,
      groups: [
        {
          flag: 'MTF',
          amount: m(1500),
          isoCost: m(0),
          filters: [f(1, 1, 'Summit Payments', 'Other'), f(7, 5, '2020-01-01', '2021-12-31')],
        },
        { flag: 'SMF', amount: m(0), isoCost: m(0), filters: [f(3, 2, 'PayLo')] },
      ],
    });
  });
  it('refuses unknown flags, filters and operators, operators of the wrong type, bad dates and amounts', () => {
    const bad = (over: Record<string, unknown>) => {
      const r = validateFeeExceptions([[{ ...feeRow, ...over }]]);
      return r.ok ? 'accepted' : r.message;
    };
    expect(bad({ fee_flag: 'XYZ' })).toMatch(/fee flag/);
    expect(bad({ filter_id: 99 })).toMatch(/unknown filter/);
    expect(bad({ filter_operator_id: 42 })).toMatch(/unknown operator/);
    expect(bad({ filter_operator_id: 3 })).toMatch(/does not apply to ISO/);
    expect(bad({ filter_id: 7, filter_operator_id: 1 })).toMatch(/does not apply to Date Opened/);
    expect(bad({ filter_id: 7, filter_operator_id: 3, filter_value: '2024-02-30' })).toMatch(/not a date/);
    expect(bad({ filter_id: 7, filter_operator_id: 3, filter_value: '2024-01-01|2024-02-01' })).toMatch(
      /one date/,
    );
    expect(bad({ filter_id: 7, filter_operator_id: 5, filter_value: '2024-02-01|2024-01-01' })).toMatch(
      /start date/,
    );
    expect(bad({ amount: '1.234' })).toMatch(/at most 2 decimals/);
    expect(bad({ amount: 'ten' })).toMatch(/must be a number/);
    expect(bad({ iso_cost: -1 })).toMatch(/cannot be negative/);
    expect(bad({ filter_value: '|||' })).toBe(PCI_MESSAGES.emptyFields);
    const mixed = validateFeeExceptions([[feeRow, { ...feeRow, amount: '16.00' }]]);
    expect(mixed).toMatchObject({ ok: false, message: expect.stringMatching(/same fee/) });
    const freq = validateFrequencyExceptions([
      [{ frequency: 'SMF', filter_id: 5, filter_value: 'TX', filter_operator_id: 1 }],
    ]);
    expect(freq).toMatchObject({ ok: false, message: expect.stringMatching(/billing type/) });
  });
});

describe('filter sources', () => {
  it('splits table.schema.field into the calls’ table and fields', () => {
    const groups = PCI_FILTERS.find((x) => x.alias === 'Group ID');
    expect(groups && filterSourceRequest(groups)).toEqual({
      displays: { table: 'groups.public', field_value: 'group_id', field_display: 'group_name' },
      values: { table: 'groups.public', field: 'group_id' },
    });
    const opened = PCI_FILTERS.find((x) => x.field_type === 'date');
    expect(opened && filterSourceRequest(opened)).toBeNull();
  });
});

describe('the ACH billing file', () => {
  it('checks routing numbers by their check digit', () => {
    for (const good of ['011000015', '021000021', '111000025', '322271627'])
      expect(validRoutingNumber(good)).toBe(true);
    for (const bad of ['011000016', '02100002', '0210000210', 'abcdefghi', ''])
      expect(validRoutingNumber(bad)).toBe(false);
  });
  it('replaces every occurrence of the stripped characters, not only the first', () => {
    expect(achName("Joe's Bar & Grill, Inc. (Main-St) #1 $5 Joe's")).toBe(
      'JOE S BAR GRILL INC MAIN ST 1 5 JOE S',
    );
    expect(achName('Café--Crème')).toBe('CAF CR ME');
  });
  it('writes 94-character records in blocks of 10 with controls that add up', () => {
    const options: NachaFileOptions = {
      originator: {
        odfiRouting: '021000021',
        odfiName: 'Demo Bank',
        companyId: '1234567890',
        companyName: 'PayDesk',
        immediateOrigin: '1234567890',
        immediateOriginName: 'PayDesk',
        entryDescription: 'PCI FEES',
      },
      createdAt: new Date('2026-11-05T14:30:00Z'),
      effectiveDate: '2026-11-06',
      descriptiveDate: 'NOV 26',
    };
    const entries = [
      {
        routing: '011000015',
        account: '12345678',
        amount: m(1995) as Money,
        id: '5100000001',
        name: "Joe's",
      },
      { routing: '322271627', account: '9876', amount: m(3995) as Money, id: '5100000002', name: 'B & B' },
    ];
    const lines = nachaFile(options, entries).split('\r\n').slice(0, -1);
    expect(lines).toHaveLength(10);
    expect(lines.every((l) => l.length === 94)).toBe(true);
    expect(lines.slice(0, 6).map((l) => l[0])).toEqual(['1', '5', '6', '6', '8', '9']);
    expect(lines.slice(6).every((l) => l === '9'.repeat(94))).toBe(true);
    expect(lines[0]?.slice(3, 13)).toBe(' 021000021');
    expect(lines[0]?.slice(23, 33)).toBe('2611051430');
    expect(lines[2]?.slice(29, 39)).toBe('0000001995');
    expect(lines[2]?.slice(54, 76)).toBe('JOE S                 ');
    // Entry hash: 01100001 + 32227162; debits 59.90.
    expect(lines[4]?.slice(10, 20)).toBe(String(1100001 + 32227162).padStart(10, '0'));
    expect(lines[4]?.slice(20, 32)).toBe('000000005990');
    expect(lines[5]?.slice(1, 7)).toBe('000001');
    expect(lines[5]?.slice(7, 13)).toBe('000001');
    expect(lines[5]?.slice(13, 21)).toBe('00000002');
    expect(() => nachaFile(options, [{ ...entries[0], routing: '011000016' } as never])).toThrow(/routing/);
  });
});
