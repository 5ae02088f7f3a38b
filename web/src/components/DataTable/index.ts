export { type BulkAction, type Column, DataTable, type RowAction, type RowSelection } from './DataTable';
export { type CellEditor, EditableCell } from './EditableCell';
export { Pager } from './Pager';
export { defColumn, formatValue, type Row, ServerTable } from './ServerTable';
export * from './tableState';
export {
  previewPageSize,
  type ServerTableDefinition,
  type ServerTableOptions,
  useServerTable,
} from './useServerTable';
export { latestParams, type TableStateControls, useTableState } from './useTableState';
