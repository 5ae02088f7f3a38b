export { MonthReport, type MonthReportProps } from './MonthReport';
export { previewPageSize, useMonthReport } from './useMonthReport';
