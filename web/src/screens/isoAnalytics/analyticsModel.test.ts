import { describe, expect, it } from 'vitest';
import { approvalLines, legendLabels, listedGroups, parseStoredGroups } from './analyticsModel';

describe('the stored group selection', () => {
  it('reads a list of names back, once each', () => {
    expect(parseStoredGroups('["Summit Payment Group","Apex","Apex"]')).toEqual([
      'Summit Payment Group',
      'Apex',
    ]);
    expect(parseStoredGroups('[]')).toEqual([]);
  });

  it.each([
    ['not JSON', '{oops'],
    ['not a list', '{"groups":["Apex"]}'],
    ['a list of other things', '[1,2]'],
    ['a blank name', '["Apex","  "]'],
  ])('discards %s', (_what, text) => {
    expect(parseStoredGroups(text)).toBeNull();
  });

  it('has nothing when nothing is stored', () => {
    expect(parseStoredGroups(null)).toBeNull();
  });

  it('keeps only the names the server still offers, in the chosen order', () => {
    expect(listedGroups(['Gone', 'B', 'A'], ['A', 'B', 'C'])).toEqual(['B', 'A']);
  });
});

describe('the approvals lines', () => {
  it('gives every partner a value for every month from the first to the last, 0 where none', () => {
    const { months, lines } = approvalLines([
      { partner: 'B', month: '2025-11', count: 2 },
      { partner: 'A', month: '2026-01', count: 5 },
      { partner: 'B', month: '2026-02', count: 1 },
    ]);
    expect(months).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(lines).toEqual([
      { name: 'A', values: [0, 0, 5, 0] },
      { name: 'B', values: [2, 0, 0, 1] },
    ]);
  });

  it('adds up two rows of the same partner and month', () => {
    const { lines } = approvalLines([
      { partner: 'A', month: '2026-01', count: 2 },
      { partner: 'A', month: '2026-01', count: 3 },
    ]);
    expect(lines).toEqual([{ name: 'A', values: [5] }]);
  });

  it('keeps the busiest partners’ own lines and sums the others into one', () => {
    const points = ['A', 'B', 'C', 'D'].map((partner, i) => ({ partner, month: '2026-01', count: i + 1 }));
    points.push({ partner: 'A', month: '2026-02', count: 1 });
    const { lines } = approvalLines(points, 3);
    expect(lines).toEqual([
      { name: 'C', values: [3, 0] },
      { name: 'D', values: [4, 0] },
      { name: 'Other partners (2)', values: [3, 1] },
    ]);
  });

  it('draws nothing without approvals', () => {
    expect(approvalLines([])).toEqual({ months: [], lines: [] });
  });
});

describe('the legend labels', () => {
  it('keep short names, and cut long ones in the middle so names with one beginning stay apart', () => {
    const labels = legendLabels([
      'Summit',
      'Summit Payment Group West Coast',
      'Summit Payment Group East Coast',
    ]);
    expect(labels.get('Summit')).toBe('Summit');
    const west = labels.get('Summit Payment Group West Coast') as string;
    const east = labels.get('Summit Payment Group East Coast') as string;
    expect(west.length).toBeLessThanOrEqual(24);
    expect(west).toContain('…');
    expect(west.startsWith('Summit Pay')).toBe(true);
    expect(west.endsWith('West Coast')).toBe(true);
    expect(east).not.toBe(west);
  });

  it('keep the full names of those that would still read the same', () => {
    const a = 'Northern Merchant Services of the Lakes Region';
    const b = 'Northern Merchant Services in the Lakes Region';
    const labels = legendLabels([a, b]);
    expect(labels.get(a)).toBe(a);
    expect(labels.get(b)).toBe(b);
  });
});
