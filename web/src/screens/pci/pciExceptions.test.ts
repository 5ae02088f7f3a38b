import { type PciFee, type PciFrequencyException, validateFeeExceptions } from '@paydesk/domain';
import { describe, expect, it } from 'vitest';
import {
  emptyFeeGroup,
  feeBody,
  feeGroupsOf,
  frequencyBody,
  frequencyGroupsOf,
  withField,
  withOperator,
} from './pciExceptions';

const fee = (over: Partial<PciFee>): PciFee => ({
  id: 1,
  fee_flag: 'MTF',
  amount: '20.00',
  iso_cost: '5.00',
  filter_id: 1,
  filter_value: 'Summit Payment Group',
  filter_operator_id: 1,
  fee_group: 1,
  ...over,
});

describe('exception groups in the editor', () => {
  it('groups the stored rows by group number, filters in id order, and sends them back the same', () => {
    const rows = [
      fee({ id: 7, fee_group: 2, fee_flag: 'NCF', amount: '50.00', filter_id: 5, filter_value: 'TX|CA' }),
      fee({ id: 3, fee_group: 1, filter_id: 7, filter_operator_id: 3, filter_value: '2024-01-01' }),
      fee({ id: 2, fee_group: 1 }),
    ];
    const groups = feeGroupsOf(rows);
    expect(groups.map((g) => [g.fee_flag, g.amount, g.filters.map((f) => f.filter_id)])).toEqual([
      ['MTF', '20.00', [1, 7]],
      ['NCF', '50.00', [5]],
    ]);
    expect(groups[1]?.filters[0]?.values).toEqual(['TX', 'CA']);
    expect(feeBody(groups)).toEqual([
      [
        {
          fee_flag: 'MTF',
          amount: '20.00',
          iso_cost: '5.00',
          filter_id: 1,
          filter_operator_id: 1,
          filter_value: 'Summit Payment Group',
          fee_group: 1,
        },
        {
          fee_flag: 'MTF',
          amount: '20.00',
          iso_cost: '5.00',
          filter_id: 7,
          filter_operator_id: 3,
          filter_value: '2024-01-01',
          fee_group: 1,
        },
      ],
      [
        {
          fee_flag: 'NCF',
          amount: '50.00',
          iso_cost: '5.00',
          filter_id: 5,
          filter_operator_id: 1,
          filter_value: 'TX|CA',
          fee_group: 2,
        },
      ],
    ]);
  });

  it('renumbers the groups by their place after one is removed', () => {
    const groups = feeGroupsOf([fee({ id: 1, fee_group: 1 }), fee({ id: 2, fee_group: 4 })]);
    const body = feeBody(groups.slice(1));
    expect(body).toHaveLength(1);
    expect(body[0]?.[0]?.fee_group).toBe(1);
  });

  it('does the same for billing-type exceptions', () => {
    const rows: PciFrequencyException[] = [
      {
        id: 4,
        frequency: 'ANF',
        filter_id: 4,
        filter_value: '5812|5814',
        filter_operator_id: 2,
        frequency_group: 1,
      },
    ];
    expect(frequencyBody(frequencyGroupsOf(rows))).toEqual([
      [
        {
          frequency: 'ANF',
          filter_id: 4,
          filter_operator_id: 2,
          filter_value: '5812|5814',
          frequency_group: 1,
        },
      ],
    ]);
  });

  it('a new group is refused with the spec message until its filter is filled; fees start at 0', () => {
    const group = emptyFeeGroup();
    expect([group.amount, group.iso_cost]).toEqual(['0', '0']);
    expect(validateFeeExceptions(feeBody([{ ...group, fee_flag: 'MTF' }]))).toEqual({
      ok: false,
      message: 'Please either fill up empty fields or remove them!',
    });
    const filled = {
      ...group,
      fee_flag: 'MTF',
      filters: [{ ...withField(group.filters[0] as never, 5), values: ['TX'] }],
    };
    expect(validateFeeExceptions(feeBody([filled])).ok).toBe(true);
  });
});

describe('a filter as its field and operator change', () => {
  const base = { key: 1, filter_id: 5, filter_operator_id: 1, values: ['TX'] };

  it('a date field offers the date operators: the first is chosen and the list values go', () => {
    expect(withField(base, 7)).toMatchObject({ filter_id: 7, filter_operator_id: 3, values: [] });
  });

  it('a list field gets In', () => {
    expect(withField({ ...base, filter_id: 7, filter_operator_id: 5 }, 2)).toMatchObject({
      filter_operator_id: 1,
      values: [],
    });
  });

  it('the same field keeps the filter as it is', () => {
    expect(withField(base, 5)).toBe(base);
  });

  it('a single-date operator keeps one date of a Between', () => {
    const between = { key: 1, filter_id: 7, filter_operator_id: 5, values: ['2024-01-01', '2024-06-30'] };
    expect(withOperator(between, 3).values).toEqual(['2024-01-01']);
    expect(withOperator({ ...base }, 2)).toMatchObject({ filter_operator_id: 2, values: ['TX'] });
  });
});
