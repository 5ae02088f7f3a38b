export { ExportModal, type ExportPreview } from './ExportModal';
