import {
  type FeeExceptionInput,
  type FrequencyExceptionInput,
  filterValues,
  operatorsFor,
  PCI_FILTERS,
  PCI_OPERATORS,
  PCI_VALUE_SEPARATOR,
  type PciFee,
  type PciFrequencyException,
} from '@paydesk/domain';

/**
 * The exception editor's model (spec §4, §5): exceptions are groups; each group has its outcome (a fee, or a
 * billing type) and filters over merchant fields, each with an operator of the field's type and values joined
 * by |. Pure, so the grouping, the filter changes and what is sent are tested without a browser.
 */
export interface FilterDraft {
  /** Identity of the row in the editor (React keys), not sent. */
  key: number;
  filter_id: number | null;
  filter_operator_id: number | null;
  values: string[];
}

export interface FeeGroupDraft {
  key: number;
  fee_flag: string | null;
  amount: string;
  iso_cost: string;
  filters: FilterDraft[];
}

export interface FrequencyGroupDraft {
  key: number;
  frequency: string | null;
  filters: FilterDraft[];
}

let nextKey = 1;
const newKey = () => nextKey++;

export const emptyFilter = (): FilterDraft => ({
  key: newKey(),
  filter_id: null,
  filter_operator_id: null,
  values: [],
});

export const emptyFeeGroup = (): FeeGroupDraft => ({
  key: newKey(),
  fee_flag: null,
  // Spec §5: fee amounts are numeric, 0 by default.
  amount: '0',
  iso_cost: '0',
  filters: [emptyFilter()],
});

export const emptyFrequencyGroup = (): FrequencyGroupDraft => ({
  key: newKey(),
  frequency: null,
  filters: [emptyFilter()],
});

/** Rows of one list (one per filter) by their group number, groups in order, filters in id order. */
function grouped<R extends { id: number }>(rows: readonly R[], groupOf: (row: R) => number): R[][] {
  const groups = new Map<number, R[]>();
  for (const row of [...rows].sort((a, b) => groupOf(a) - groupOf(b) || a.id - b.id)) {
    const list = groups.get(groupOf(row)) ?? [];
    list.push(row);
    groups.set(groupOf(row), list);
  }
  return [...groups.values()];
}

const filterOf = (row: {
  filter_id: number;
  filter_operator_id: number;
  filter_value: string;
}): FilterDraft => ({
  key: newKey(),
  filter_id: row.filter_id,
  filter_operator_id: row.filter_operator_id,
  values: filterValues(row.filter_value),
});

export function feeGroupsOf(rows: readonly PciFee[]): FeeGroupDraft[] {
  return grouped(rows, (r) => r.fee_group).map((group) => {
    const first = group[0] as PciFee;
    return {
      key: newKey(),
      fee_flag: first.fee_flag,
      amount: first.amount,
      iso_cost: first.iso_cost,
      filters: group.map(filterOf),
    };
  });
}

export function frequencyGroupsOf(rows: readonly PciFrequencyException[]): FrequencyGroupDraft[] {
  return grouped(rows, (r) => r.frequency_group).map((group) => ({
    key: newKey(),
    frequency: (group[0] as PciFrequencyException).frequency,
    filters: group.map(filterOf),
  }));
}

/** A filter row as sent: nulls stay nulls, so the server answers the spec's empty-fields message. */
function sentFilter(filter: FilterDraft) {
  return {
    filter_id: filter.filter_id,
    filter_operator_id: filter.filter_operator_id,
    filter_value: filter.values.map((v) => v.trim()).join(PCI_VALUE_SEPARATOR),
  };
}

/** InsertFee's body: each group's rows, the group's fee on every row. */
export function feeBody(groups: readonly FeeGroupDraft[]): FeeExceptionInput[][] {
  return groups.map((group, i) =>
    group.filters.map((filter) => ({
      fee_flag: group.fee_flag,
      amount: group.amount.trim(),
      iso_cost: group.iso_cost.trim(),
      ...sentFilter(filter),
      fee_group: i + 1,
    })),
  );
}

/** InsertFrequency's body. */
export function frequencyBody(groups: readonly FrequencyGroupDraft[]): FrequencyExceptionInput[][] {
  return groups.map((group, i) =>
    group.filters.map((filter) => ({
      frequency: group.frequency,
      ...sentFilter(filter),
      frequency_group: i + 1,
    })),
  );
}

/**
 * Another field chosen for a filter: its operator becomes the first one the field's type offers (spec §5), and
 * values chosen for the old field no longer apply.
 */
export function withField(filter: FilterDraft, filterId: number | null): FilterDraft {
  if (filterId === filter.filter_id) return filter;
  const first = filterId === null ? undefined : operatorsFor(filterId)[0];
  return { ...filter, filter_id: filterId, filter_operator_id: first?.id ?? null, values: [] };
}

/** Another operator: a date operator keeps as many dates as it takes (Between two, the others one). */
export function withOperator(filter: FilterDraft, operatorId: number | null): FilterDraft {
  const operator = PCI_OPERATORS.find((o) => o.id === operatorId);
  if (operator?.operator_type !== 'date') return { ...filter, filter_operator_id: operatorId };
  const wanted = operator.alias === 'Between' ? 2 : 1;
  return { ...filter, filter_operator_id: operatorId, values: filter.values.slice(0, wanted) };
}

export const filterDef = (filterId: number | null) => PCI_FILTERS.find((f) => f.id === filterId);
export const isDateFilter = (filterId: number | null) => filterDef(filterId)?.field_type === 'date';
export const isBetween = (operatorId: number | null) =>
  PCI_OPERATORS.find((o) => o.id === operatorId)?.alias === 'Between';
