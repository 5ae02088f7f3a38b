import { Box } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { init } from './echarts';
import type { ChartOption } from './options';

export interface EChartProps {
  option: ChartOption;
  height: number;
  /** What the chart shows, in words, for assistive technology (and tests): the canvas itself says nothing. */
  label: string;
  /** A click on a bar or slice: its category name and series. */
  onItemClick?: (item: { name: string; seriesName: string; dataIndex: number }) => void;
  /** A click on the chart outside any bar, slice or control (empty space). */
  onBlankClick?: () => void;
  /** The user panned or zoomed: the first zoom's window in percent, to keep it when the option changes. */
  onZoom?: (window: { start: number; end: number }) => void;
}

/** One ECharts instance bound to a box: created on mount, updated when the option changes, resized with its box. */
export function EChart({ option, height, label, onItemClick, onBlankClick, onZoom }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const instance = init(element, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || !onItemClick) return;
    const handler = (params: unknown) => {
      const p = params as { name?: string; seriesName?: string; dataIndex?: number };
      onItemClick({ name: p.name ?? '', seriesName: p.seriesName ?? '', dataIndex: p.dataIndex ?? 0 });
    };
    instance.on('click', handler);
    return () => {
      instance.off('click', handler);
    };
  }, [onItemClick]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || !onBlankClick) return;
    const zr = instance.getZr();
    // zrender names the element under the pointer; none means the click fell on empty space.
    const handler = (event: { target?: unknown }) => {
      if (!event.target) onBlankClick();
    };
    zr.on('click', handler);
    return () => {
      zr.off('click', handler);
    };
  }, [onBlankClick]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || !onZoom) return;
    const handler = () => {
      const zoom = (instance.getOption() as { dataZoom?: Array<{ start?: number; end?: number }> })
        .dataZoom?.[0];
      if (zoom?.start !== undefined && zoom.end !== undefined) onZoom({ start: zoom.start, end: zoom.end });
    };
    instance.on('datazoom', handler);
    return () => {
      instance.off('datazoom', handler);
    };
  }, [onZoom]);

  return <Box ref={box} role="img" aria-label={label} h={height} w="100%" />;
}

export default EChart;
