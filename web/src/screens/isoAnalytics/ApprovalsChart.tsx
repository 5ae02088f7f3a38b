import type { LineSeriesOption } from 'echarts/charts';
import { useMemo } from 'react';
import { type ChartOption, countLabel, EChart } from '../../components/charts';
import {
  type ApprovalPoint,
  approvalLines,
  legendLabels,
  lineColor,
  MAX_PARTNER_LINES,
} from './analyticsModel';

const FONT = 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const AXIS_TEXT = '#495057';

const SHORT = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Approvals per month, one line per partner, with a zoom slider over the years. */
export function ApprovalsChart({ points, height }: { points: readonly ApprovalPoint[]; height: number }) {
  const option = useMemo<ChartOption>(() => {
    const { months, lines } = approvalLines(points);
    const labels = legendLabels(lines.map((line) => line.name));
    const series: LineSeriesOption[] = lines.map((line, i) => {
      const color = i === MAX_PARTNER_LINES - 1 && line.name.startsWith('Other') ? '#adb5bd' : lineColor(i);
      return {
        type: 'line',
        name: line.name,
        data: line.values,
        itemStyle: { color },
        lineStyle: { color, width: 2 },
        symbol: 'none',
        emphasis: { focus: 'series' },
      };
    });
    // The last three years open in view; older months are a pan away.
    const start = months.length > 36 ? Math.round((1 - 36 / months.length) * 100) : 0;
    return {
      animationDuration: 400,
      textStyle: { fontFamily: FONT },
      grid: {
        left: 8,
        right: 16,
        top: 40 + Math.ceil(lines.length / 2) * 20,
        bottom: 44,
        containLabel: true,
      },
      // Every partner, two to a row (at most MAX_PARTNER_LINES lines, so at most five rows): long names cut in the
      // middle (legendLabels), the full name on hover and in the tooltip.
      legend: {
        top: 0,
        left: 0,
        right: 0,
        itemWidth: 16,
        itemHeight: 8,
        itemGap: 12,
        formatter: (name: string) => labels.get(name) ?? name,
        tooltip: { show: true },
        textStyle: { fontSize: 12, color: AXIS_TEXT },
      },
      tooltip: { trigger: 'axis', valueFormatter: countLabel, order: 'valueDesc' },
      xAxis: {
        type: 'category',
        data: months.map(SHORT),
        boundaryGap: false,
        axisTick: { show: false },
        axisLine: { lineStyle: { color: '#ced4da' } },
        axisLabel: { color: AXIS_TEXT, fontSize: 11, fontFamily: FONT },
      },
      yAxis: {
        type: 'value',
        minInterval: 1,
        name: 'approvals',
        nameTextStyle: { color: AXIS_TEXT, fontSize: 11, fontFamily: FONT, align: 'left' },
        splitLine: { lineStyle: { color: '#e9ecef' } },
        axisLabel: { color: AXIS_TEXT, fontSize: 11, fontFamily: FONT, formatter: countLabel },
      },
      dataZoom: [
        { type: 'inside', start, end: 100 },
        { type: 'slider', start, end: 100, height: 18, bottom: 6 },
      ],
      series,
    };
  }, [points]);
  return <EChart option={option} height={height} label="Approvals per month, one line per partner" />;
}
