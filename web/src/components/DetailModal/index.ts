export { DetailModal } from './DetailModal';
export { type Dataset, type DatasetColumn, dashboardFileName, datasetsWorkbook, sheetName } from './workbook';
