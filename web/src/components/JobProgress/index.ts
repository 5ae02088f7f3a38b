export { JobProgress } from './JobProgress';
export { JobStateBadge } from './JobStateBadge';
export { parseProgress, tablePollInterval } from './jobState';
export { useJobStatus } from './useJobStatus';
