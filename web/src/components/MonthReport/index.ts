export { MonthReport, type MonthReportProps, type MonthReportSource } from './MonthReport';
