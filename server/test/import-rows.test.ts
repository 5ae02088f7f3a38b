import { describe, expect, it } from 'vitest';
import { fixed } from '../src/platform/importRows';

describe('fixed', () => {
  it('writes an amount as toFixed does, from a cent to the largest an import accepts', () => {
    // The oracle is JavaScript's own toFixed, over whole numbers of every size (deterministic, for replay).
    let state = 20261124;
    const next = () => {
      state = (state * 1664525 + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const units = [0, -0, 1, -1, 9, 10, 99, -99, 100, -100, 101, 10_000, -10_001, 99_999_999_999_999];
    for (let i = 0; i < 200_000; i++) units.push(Math.round((next() - 0.5) * 10 ** Math.floor(next() * 16)));
    for (const u of units)
      for (const places of [2, 4])
        expect(fixed(u, places), `${u} ${places}`).toBe((u / 10 ** places).toFixed(places));
  });
});
