import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { EChartProps } from './EChart';

const Chart = lazy(() => import('./EChart'));

/** The chart wrapper, with ECharts fetched only when a chart is first drawn. */
export function LazyEChart(props: EChartProps) {
  return (
    <Suspense
      fallback={
        <Center h={props.height}>
          <Loader size="sm" />
        </Center>
      }
    >
      <Chart {...props} />
    </Suspense>
  );
}
