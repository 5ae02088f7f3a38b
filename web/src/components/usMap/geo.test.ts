import { describe, expect, it } from 'vitest';
import { INSETS, statesGeoJson } from './geo';
import { stateName, US_STATES } from './usStates';

const rings = (geometry: { type: string; coordinates: unknown }) =>
  (geometry.type === 'Polygon'
    ? (geometry.coordinates as [number, number][][])
    : (geometry.coordinates as [number, number][][][]).flat()) as [number, number][][];

describe('the US states map', () => {
  const geo = statesGeoJson();
  const names = geo.features.map((f) => f.properties.name);

  it('draws the 50 states, DC and Puerto Rico, and no other territory', () => {
    expect(new Set(names)).toEqual(new Set(Object.values(US_STATES)));
    expect(names).toHaveLength(52);
    for (const territory of [
      'Guam',
      'American Samoa',
      'Commonwealth of the Northern Mariana Islands',
      'United States Virgin Islands',
    ])
      expect(names).not.toContain(territory);
  });

  it('keeps Alaska west of the date line, in one piece', () => {
    const alaska = geo.features.find((f) => f.properties.name === 'Alaska');
    const longitudes = rings(alaska?.geometry as never).flatMap((ring) => ring.map(([lng]) => lng));
    expect(Math.max(...longitudes)).toBeLessThan(-129);
    expect(Math.min(...longitudes)).toBeGreaterThan(-200);
  });

  it('leaves the continental states where they are', () => {
    const texas = geo.features.find((f) => f.properties.name === 'Texas');
    const longitudes = rings(texas?.geometry as never).flatMap((ring) => ring.map(([lng]) => lng));
    expect(Math.min(...longitudes)).toBeGreaterThan(-107);
    expect(Math.max(...longitudes)).toBeLessThan(-93);
  });

  it('places Alaska, Hawaii and Puerto Rico as insets, by their map names', () => {
    expect(Object.keys(INSETS).every((name) => names.includes(name))).toBe(true);
  });

  it('names a state by its postal code, whatever the case or spaces', () => {
    expect(stateName('tx ')).toBe('Texas');
    expect(stateName('PR')).toBe('Puerto Rico');
    expect(stateName('GU')).toBeNull();
  });
});
