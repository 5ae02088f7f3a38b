import { describe, expect, it } from 'vitest';
import { chartHeight } from './chartHeight';

describe('leaderboard chart height', () => {
  it('grows with the names so each bar keeps its room, from a minimum', () => {
    expect(chartHeight(0)).toBe(180);
    expect(chartHeight(10)).toBe(388);
    expect(chartHeight(20) - chartHeight(19)).toBe(34);
  });
});
