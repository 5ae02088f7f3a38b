import type { LineSeriesOption } from 'echarts/charts';
import { useMemo } from 'react';
import { type ChartOption, EChart } from '../../components/charts';

const FONT = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const AXIS_TEXT = '#495057';

export interface TrendChartProps {
  categories: readonly string[];
  name: string;
  values: readonly number[];
  /** The latest point projected to the whole month, or null when there is no projection (spec 3 §4). */
  trend: number | null;
  color: string;
  format: (value: number) => string;
  height: number;
  label: string;
}

/** One measure over months or days, with the projected Trend as a dashed line from the last point's start. */
export function TrendChart({
  categories,
  name,
  values,
  trend,
  color,
  format,
  height,
  label,
}: TrendChartProps) {
  const option = useMemo<ChartOption>(() => {
    const last = values.length - 1;
    const series: LineSeriesOption[] = [
      {
        type: 'line',
        name,
        data: [...values],
        itemStyle: { color },
        lineStyle: { color, width: 2.5 },
        areaStyle: { color, opacity: 0.1 },
        symbol: 'circle',
        // A single point (an old month's total) has no line to show it: a larger dot with its value.
        symbolSize: values.length === 1 ? 10 : 5,
        label: {
          show: values.length === 1,
          position: 'top',
          formatter: (p: { value?: unknown }) => format(Number(p.value)),
        },
        z: 5,
      },
    ];
    if (trend !== null && last >= 1) {
      // The dashed line runs from the last complete point to the projection of the current one.
      series.push({
        type: 'line',
        name: 'Trend',
        data: values.map((v, i) => (i === last - 1 ? v : i === last ? trend : '-')),
        itemStyle: { color: '#f08c00' },
        lineStyle: { color: '#f08c00', width: 2, type: 'dashed' },
        symbol: 'circle',
        symbolSize: 6,
        z: 4,
      });
    }
    return {
      animationDuration: 400,
      textStyle: { fontFamily: FONT },
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      legend: {
        top: 0,
        left: 0,
        itemWidth: 16,
        itemHeight: 8,
        textStyle: { fontSize: 12, color: AXIS_TEXT },
      },
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v: unknown) => (typeof v === 'number' ? format(v) : '—'),
      },
      xAxis: {
        type: 'category',
        data: [...categories],
        boundaryGap: false,
        axisTick: { show: false },
        axisLine: { lineStyle: { color: '#ced4da' } },
        axisLabel: { color: AXIS_TEXT, fontSize: 11, fontFamily: FONT },
      },
      yAxis: {
        type: 'value',
        splitLine: { lineStyle: { color: '#e9ecef' } },
        axisLabel: {
          color: AXIS_TEXT,
          fontSize: 11,
          fontFamily: FONT,
          formatter: (v: unknown) => format(Number(v)),
        },
      },
      series,
    };
  }, [categories, name, values, trend, color, format]);
  return <EChart option={option} height={height} label={label} />;
}
