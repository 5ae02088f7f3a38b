export { SavedReports } from './SavedReports';
export { parseSavedReport, type SavedReportCalls, tableReportCalls } from './useSavedReports';
