import { describe, expect, it } from 'vitest';
import { barOption, countLabel, pieOption } from './options';

describe('chart options', () => {
  it('puts categories on the side for horizontal bars and along the bottom otherwise', () => {
    const spec = { categories: ['A', 'B'], bars: [{ name: 'Approved', values: [3, 1], color: '#000' }] };
    const vertical = barOption(spec) as { xAxis: { type: string }; yAxis: { type: string } };
    expect(vertical.xAxis.type).toBe('category');
    const horizontal = barOption({ ...spec, horizontal: true }) as {
      xAxis: { type: string };
      yAxis: { type: string; inverse: boolean };
    };
    expect(horizontal.yAxis).toMatchObject({ type: 'category', inverse: true });
    expect(horizontal.xAxis.type).toBe('value');
  });

  it('shows a legend only when there is more than one series', () => {
    const one = barOption({ categories: ['A'], bars: [{ name: 'x', values: [1], color: '#000' }] });
    expect(one.legend).toBeUndefined();
    const two = barOption({
      categories: ['A'],
      bars: [{ name: 'x', values: [1], color: '#000' }],
      lines: [{ name: 'Goal', values: [2], color: '#f00' }],
    });
    expect(two.legend).toBeDefined();
    expect((two.series as unknown[]).length).toBe(2);
  });

  it('leaves empty slices out of a pie', () => {
    const pie = pieOption({
      name: 'p',
      slices: [
        { name: 'A', value: 2, color: '#000' },
        { name: 'B', value: 0, color: '#111' },
      ],
    }) as { series: Array<{ data: Array<{ name: string }> }> };
    expect(pie.series[0]?.data.map((d) => d.name)).toEqual(['A']);
  });

  it("lays a pie's labels out inside the chart, so a label at the edge is not cut ('11%' shown as '1%')", () => {
    const pie = pieOption({ name: 'p', slices: [{ name: 'A', value: 1, color: '#000' }] }) as {
      series: Array<{ label: { alignTo: string; edgeDistance: number; overflow: string } }>;
    };
    expect(pie.series[0]?.label).toMatchObject({ alignTo: 'edge', overflow: 'none' });
    expect(pie.series[0]?.label.edgeDistance).toBeGreaterThanOrEqual(0);
  });

  it('writes counts with thousands separators', () => {
    expect(countLabel(12345)).toBe('12,345');
    expect(countLabel('x')).toBe('x');
  });

  it('formats values and opens a zoom window on category indices with a narrowest span', () => {
    const option = barOption({
      categories: ['A', 'B', 'C', 'D'],
      bars: [{ name: 'Volume', values: [1_000_000, 2_000_000, 0, 5], color: '#000' }],
      format: { axis: (v) => `${v / 1_000_000}M`, value: (v) => `$${v}` },
      zoom: { startValue: 1, endValue: 3, minValueSpan: 2 },
    }) as {
      yAxis: { axisLabel: { formatter: (v: unknown) => string } };
      tooltip: { valueFormatter: (v: unknown) => string };
      dataZoom: Array<Record<string, unknown>>;
    };
    expect(option.yAxis.axisLabel.formatter(2_000_000)).toBe('2M');
    expect(option.tooltip.valueFormatter(5)).toBe('$5');
    for (const zoom of option.dataZoom)
      expect(zoom).toMatchObject({ startValue: 1, endValue: 3, minValueSpan: 2 });
  });

  it('draws nothing for a missing value: no bar, no label, no line point', () => {
    const option = barOption({
      categories: ['Oct', 'Nov', 'Dec'],
      bars: [{ name: 'Approved', values: [3, 0, null], color: '#000', stack: 'goal', labels: true }],
      lines: [{ name: 'Goal due', values: [4, 2, null], color: '#f00' }],
    }) as {
      series: Array<{ data: unknown[]; label?: { formatter: (p: { value: unknown }) => string } }>;
    };
    const [bars, line] = option.series;
    expect(bars?.data).toEqual([3, 0, '-']);
    expect(line?.data).toEqual([4, 2, '-']);
    expect(bars?.label?.formatter({ value: '-' })).toBe('');
    expect(bars?.label?.formatter({ value: 3 })).toBe('3');
  });

  it('puts a doughnut’s percentages outside the ring, where they are not cut', () => {
    const pie = pieOption({ name: 'p', slices: [{ name: 'A', value: 2, color: '#000' }] }) as {
      series: Array<{ label: { position: string }; labelLine: { show: boolean } }>;
    };
    expect(pie.series[0]?.label.position).toBe('outside');
    expect(pie.series[0]?.labelLine.show).toBe(true);
  });
});
