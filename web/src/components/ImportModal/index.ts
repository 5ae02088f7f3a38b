export { ColumnLayout, ImportModal } from './ImportModal';
export { canImport, fileProblem } from './importFile';
