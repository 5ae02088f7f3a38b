import type { LineSeriesOption } from 'echarts/charts';
import type { ChartOption, ChartValue } from '../../components/charts';

const FONT = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const AXIS_TEXT = '#495057';

export interface DayLine {
  name: string;
  values: readonly ChartValue[];
  color: string;
  /** A reference (budget, benchmark) rather than the measured figure: thinner, dashed, no fill. */
  reference?: boolean;
}

/**
 * Lines over days: the measured series filled below, references dashed over it. Days without a figure (null)
 * leave a gap instead of dropping the line to zero, so a month in progress ends where its data ends.
 */
export function dayLinesOption(spec: {
  categories: readonly string[];
  lines: readonly DayLine[];
  format: { axis: (value: number) => string; value: (value: number) => string };
}): ChartOption {
  const series: LineSeriesOption[] = spec.lines.map((line) => ({
    type: 'line',
    name: line.name,
    data: line.values.map((v) => (v === null ? '-' : v)),
    itemStyle: { color: line.color },
    lineStyle: {
      color: line.color,
      width: line.reference ? 1.5 : 2.5,
      type: line.reference ? 'dashed' : 'solid',
    },
    areaStyle: line.reference ? undefined : { color: line.color, opacity: 0.12 },
    symbol: line.reference ? 'none' : 'circle',
    symbolSize: 5,
    connectNulls: false,
    z: line.reference ? 3 : 5,
  }));
  return {
    animationDuration: 400,
    textStyle: { fontFamily: FONT },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    legend: { top: 0, left: 0, itemWidth: 16, itemHeight: 8, textStyle: { fontSize: 12, color: AXIS_TEXT } },
    tooltip: {
      trigger: 'axis',
      valueFormatter: (v: unknown) => (typeof v === 'number' ? spec.format.value(v) : '—'),
    },
    xAxis: {
      type: 'category',
      data: [...spec.categories],
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
        formatter: (v: unknown) => spec.format.axis(Number(v)),
      },
    },
    series,
  };
}
