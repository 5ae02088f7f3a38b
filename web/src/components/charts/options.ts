import type { BarSeriesOption, LineSeriesOption, MapSeriesOption, PieSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TitleComponentOption,
  TooltipComponentOption,
  VisualMapComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

/** The options our registered charts and components accept (the map's parts load with the map only). */
export type ChartOption = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | PieSeriesOption
  | MapSeriesOption
  | VisualMapComponentOption
  | GridComponentOption
  | TooltipComponentOption
  | LegendComponentOption
  | TitleComponentOption
  | DataZoomComponentOption
>;

const FONT = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const AXIS_TEXT = '#495057';
const GRID_LINE = '#e9ecef';

/** A bar or point left out: a month that has not begun has nothing to draw. */
export type ChartValue = number | null;

/** ECharts' empty value: nothing is drawn and the tooltip skips it. */
const drawn = (value: ChartValue) => (value === null ? '-' : value);

export interface BarSeries {
  name: string;
  values: readonly ChartValue[];
  color: string;
  /** Series with the same stack name pile up. */
  stack?: string;
  /** Print each value on its bar. */
  labels?: boolean;
  /** Paint each bar in its own colour (one series over categories that each have a colour). */
  colors?: readonly string[];
}

export interface LineSeries {
  name: string;
  values: readonly ChartValue[];
  color: string;
}

export interface BarChartSpec {
  categories: readonly string[];
  bars: readonly BarSeries[];
  /** Drawn over the bars, e.g. a goal per month. */
  lines?: readonly LineSeries[];
  /** Bars run left to right with the categories down the side (long names, rankings). */
  horizontal?: boolean;
  /**
   * A zoom slider under the chart when there are more categories than fit: the window in percent, or in
   * category indices; `minValueSpan` is the narrowest window (in categories) a user can zoom to.
   */
  zoom?: ({ start: number; end: number } | { startValue: number; endValue: number }) & {
    minValueSpan?: number;
  };
  legend?: boolean;
  /** How values read on the value axis and in the tooltip (and bar labels); counts when absent. */
  format?: { axis: (value: number) => string; value: (value: number) => string };
  /**
   * The value axis's unit, e.g. "$ millions". The convention: a scaled axis names its unit here and its
   * ticks are plain numbers in that unit ("2,100" under "thousands", never "2,100K").
   */
  valueAxisName?: string;
}

/** Whole counts read with thousands separators. */
export const countLabel = (value: unknown) =>
  typeof value === 'number' ? value.toLocaleString('en-US') : String(value ?? '');

/** A bar chart of counts: plain, stacked or grouped bars, optionally with lines over them. */
export function barOption(spec: BarChartSpec): ChartOption {
  const { format } = spec;
  const axisFormat = format ? (v: unknown) => format.axis(Number(v)) : countLabel;
  const valueFormat = format ? (v: unknown) => format.value(Number(v)) : countLabel;
  const categoryAxis = {
    type: 'category' as const,
    data: [...spec.categories],
    inverse: spec.horizontal === true,
    axisTick: { show: false },
    axisLine: { lineStyle: { color: '#ced4da' } },
    axisLabel: { color: AXIS_TEXT, fontSize: 12, fontFamily: FONT, hideOverlap: false },
  };
  const valueAxis = {
    type: 'value' as const,
    minInterval: 1,
    name: spec.valueAxisName,
    nameTextStyle: { color: AXIS_TEXT, fontSize: 11, fontFamily: FONT, align: 'left' as const },
    splitLine: { lineStyle: { color: GRID_LINE } },
    axisLabel: { color: AXIS_TEXT, fontSize: 11, fontFamily: FONT, formatter: axisFormat },
  };
  const bars: BarSeriesOption[] = spec.bars.map((bar) => ({
    type: 'bar',
    name: bar.name,
    stack: bar.stack,
    data: bar.values.map((value, i) =>
      bar.colors
        ? { value: drawn(value), itemStyle: { color: bar.colors[i % bar.colors.length] } }
        : drawn(value),
    ),
    itemStyle: {
      color: bar.color,
      borderRadius: bar.stack ? 0 : spec.horizontal ? [0, 4, 4, 0] : [4, 4, 0, 0],
    },
    barMaxWidth: 56,
    label: bar.labels
      ? {
          show: true,
          position: bar.stack ? 'inside' : spec.horizontal ? 'right' : 'top',
          formatter: (p: { value: unknown }) =>
            typeof p.value !== 'number' || (p.value === 0 && bar.stack) ? '' : valueFormat(p.value),
          fontSize: 12,
          fontWeight: 600,
          fontFamily: FONT,
          color: bar.stack ? '#fff' : '#212529',
        }
      : undefined,
    emphasis: { focus: 'series' },
  }));
  const lines: LineSeriesOption[] = (spec.lines ?? []).map((line) => ({
    type: 'line',
    name: line.name,
    data: line.values.map(drawn),
    itemStyle: { color: line.color },
    lineStyle: { color: line.color, width: 2, type: 'dashed' },
    symbol: 'circle',
    symbolSize: 6,
    z: 5,
  }));
  const legend = spec.legend ?? spec.bars.length + lines.length > 1;
  return {
    animationDuration: 400,
    textStyle: { fontFamily: FONT },
    grid: {
      left: 8,
      right: spec.horizontal ? 40 : 12,
      top: legend || spec.valueAxisName ? 36 : 16,
      bottom: spec.zoom ? 44 : 8,
      containLabel: true,
    },
    legend: legend
      ? { top: 0, left: 0, itemWidth: 14, itemHeight: 10, textStyle: { fontSize: 12, color: AXIS_TEXT } }
      : undefined,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: valueFormat },
    xAxis: spec.horizontal ? valueAxis : categoryAxis,
    yAxis: spec.horizontal ? categoryAxis : valueAxis,
    dataZoom: spec.zoom
      ? [
          { type: 'inside', ...spec.zoom },
          { type: 'slider', ...spec.zoom, height: 18, bottom: 6 },
        ]
      : undefined,
    series: [...bars, ...lines],
  };
}

export interface PieSlice {
  name: string;
  value: number;
  color: string;
}

/**
 * A doughnut of shares; empty slices are left out so their labels do not pile up at zero. The percentages
 * sit outside the ring on short leader lines: inside, a label wider than the ring was cut at its edges.
 */
export function pieOption(spec: { name: string; slices: readonly PieSlice[] }): ChartOption {
  const slices = spec.slices.filter((s) => s.value > 0);
  return {
    animationDuration: 400,
    textStyle: { fontFamily: FONT },
    tooltip: {
      trigger: 'item',
      valueFormatter: countLabel,
    },
    series: [
      {
        type: 'pie',
        name: spec.name,
        radius: ['36%', '58%'],
        center: ['50%', '50%'],
        avoidLabelOverlap: true,
        itemStyle: { borderColor: '#fff', borderWidth: 2 },
        label: {
          show: true,
          position: 'outside',
          // A narrow card must not cut "33%" down to "…" or "11%" down to "1%" at the canvas's edge: the labels are
          // laid out against the chart's edges, inside it, and the ring is sized to leave them room.
          overflow: 'none',
          alignTo: 'edge',
          edgeDistance: 2,
          formatter: (p: { percent?: number }) =>
            (p.percent ?? 0) >= 1 ? `${Math.round(p.percent ?? 0)}%` : '',
          color: '#212529',
          fontWeight: 600,
          fontSize: 12,
        },
        labelLine: { show: true, length: 6, length2: 6 },
        data: slices.map((s) => ({ name: s.name, value: s.value, itemStyle: { color: s.color } })),
      },
    ],
  };
}
