export { type Column, DataTable } from './DataTable';
export { defColumn, type Row, ServerTable } from './ServerTable';
export * from './tableState';
export {
  previewPageSize,
  type ServerTableDefinition,
  type ServerTableOptions,
  useServerTable,
} from './useServerTable';
export { latestParams, type TableStateControls, useTableState } from './useTableState';
