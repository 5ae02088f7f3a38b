export type { EChartProps } from './EChart';
export { LazyEChart as EChart } from './LazyEChart';
export * from './options';
export * from './palette';
