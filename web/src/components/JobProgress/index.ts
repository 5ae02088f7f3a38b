export { JobProgress } from './JobProgress';
export { JobStateBadge } from './JobStateBadge';
export { isLive, parseProgress, STATE_COLORS, statusPollInterval, tablePollInterval } from './jobState';
export { useJobStatus } from './useJobStatus';
