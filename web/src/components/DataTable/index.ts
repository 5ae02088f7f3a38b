export { type Column, DataTable } from './DataTable';
export { defColumn, type Row, ServerTable } from './ServerTable';
export * from './tableState';
export { latestParams, type TableStateControls, useTableState } from './useTableState';
