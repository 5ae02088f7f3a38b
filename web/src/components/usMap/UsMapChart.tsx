import { MapChart } from 'echarts/charts';
import { VisualMapPiecewiseComponent } from 'echarts/components';
import { registerMap, use } from 'echarts/core';
import { useMemo } from 'react';
import { EChart } from '../charts/EChart';
import type { ChartOption } from '../charts/options';
import { INSETS, statesGeoJson } from './geo';
import { stateName } from './usStates';

// This module is reached only through LazyUsMap, so the map series and the states' shapes load with the
// screens that draw the map and never with the others.
use([MapChart, VisualMapPiecewiseComponent]);
const MAP = 'USA';
registerMap(MAP, statesGeoJson() as Parameters<typeof registerMap>[1], INSETS);

/** One colour band of the map: counts from `min` up to, not including, `below` (null: no upper end). */
export interface MapBand {
  min: number;
  below: number | null;
  color: string;
  label: string;
}

export interface UsMapProps {
  /** Merchants per state, by postal code. */
  counts: readonly { state: string; count: number }[];
  bands: readonly MapBand[];
  height: number;
  /** What the counts are, for the tooltip and the label: 'merchants'. */
  noun: string;
}

const NO_DATA = '#f1f3f5';

/** The US map of counts per state, coloured by band; Alaska, Hawaii and Puerto Rico as insets. */
export function UsMapChart({ counts, bands, height, noun }: UsMapProps) {
  const option = useMemo<ChartOption>(() => {
    const byName = new Map<string, number>();
    for (const { state, count } of counts) {
      const name = stateName(state);
      if (name !== null) byName.set(name, (byName.get(name) ?? 0) + count);
    }
    return {
      tooltip: {
        trigger: 'item',
        formatter: (p: unknown) => {
          const { name, value } = p as { name: string; value?: number };
          const count = typeof value === 'number' && Number.isFinite(value) ? value : 0;
          return `${name}: ${count.toLocaleString('en-US')} ${noun}`;
        },
      },
      visualMap: {
        type: 'piecewise',
        right: 0,
        top: 'middle',
        itemWidth: 14,
        itemHeight: 10,
        textStyle: { fontSize: 11, color: '#495057' },
        pieces: bands.map((band) => ({
          gte: band.min,
          ...(band.below !== null && { lt: band.below }),
          label: band.label,
          color: band.color,
        })),
        outOfRange: { color: NO_DATA },
      },
      series: [
        {
          type: 'map',
          map: MAP,
          name: noun,
          // Framed on the continental US; a user may zoom in but not out past it.
          roam: true,
          scaleLimit: { min: 1, max: 10 },
          left: 0,
          right: 112,
          top: 8,
          bottom: 8,
          itemStyle: { borderColor: '#fff', borderWidth: 0.6, areaColor: NO_DATA },
          emphasis: { label: { show: false }, itemStyle: { areaColor: '#ffd43b' } },
          select: { disabled: true },
          data: [...byName].map(([name, value]) => ({ name, value })),
        },
      ],
    };
  }, [counts, bands, noun]);
  return <EChart option={option} height={height} label={`Map of ${noun} per state`} />;
}

export default UsMapChart;
