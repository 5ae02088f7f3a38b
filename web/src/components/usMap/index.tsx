import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { UsMapProps } from './UsMapChart';

export type { MapBand, UsMapProps } from './UsMapChart';

const Chart = lazy(() => import('./UsMapChart'));

/** The US map, with ECharts and the states' shapes fetched only when a map is first drawn. */
export function UsMap(props: UsMapProps) {
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
