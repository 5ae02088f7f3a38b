import { describe, expect, it } from 'vitest';
import { budgetChanges, cellKey, monthTotal, savedBudgets } from './budgetModel';

const saved = savedBudgets([
  { bank: 'CBCAL', mth: '2026-01-01', budget: 1_000_000 },
  { bank: 'PPS', mth: '2026-01-01', budget: 250_000.5 },
  { bank: 'CBCAL', mth: '2026-02-01', budget: 0 },
]);

describe('budgetChanges', () => {
  it('sends only the cells whose amount differs from the saved one, by month then bank', () => {
    const edits = new Map<string, number | ''>([
      [cellKey('PPS', '2026-02-01'), 300_000],
      [cellKey('CBCAL', '2026-01-01'), 1_000_000],
      [cellKey('PPS', '2026-01-01'), 260_000],
    ]);
    expect(budgetChanges(edits, saved)).toEqual([
      { bank: 'PPS', mth: '2026-01-01', budget: 260_000 },
      { bank: 'PPS', mth: '2026-02-01', budget: 300_000 },
    ]);
  });

  it('sends an emptied cell as 0, unless it was 0 or had no budget', () => {
    const edits = new Map<string, number | ''>([
      [cellKey('CBCAL', '2026-01-01'), ''],
      [cellKey('CBCAL', '2026-02-01'), ''],
      [cellKey('Esquire', '2026-03-01'), ''],
    ]);
    expect(budgetChanges(edits, saved)).toEqual([{ bank: 'CBCAL', mth: '2026-01-01', budget: 0 }]);
  });

  it('sends nothing when the edits put back the saved amounts', () => {
    const edits = new Map<string, number | ''>([[cellKey('PPS', '2026-01-01'), 250_000.5]]);
    expect(budgetChanges(edits, saved)).toEqual([]);
  });
});

describe('monthTotal', () => {
  it('adds the banks of a month with the edits applied, to the cent', () => {
    expect(monthTotal(['CBCAL', 'PPS', 'Esquire'], '2026-01-01', new Map(), saved)).toBe(1_250_000.5);
    const edits = new Map<string, number | ''>([
      [cellKey('CBCAL', '2026-01-01'), ''],
      [cellKey('Esquire', '2026-01-01'), 0.1],
    ]);
    expect(monthTotal(['CBCAL', 'PPS', 'Esquire'], '2026-01-01', edits, saved)).toBe(250_000.6);
  });
});
