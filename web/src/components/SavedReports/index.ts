export { SavedReports } from './SavedReports';
export { parseSavedReport } from './useSavedReports';
