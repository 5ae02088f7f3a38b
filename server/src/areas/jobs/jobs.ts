import { upkeepJob } from '../../platform/jobs';
import { deleteOrphanProgress } from './queries';

/** Nightly: pg-boss deletes runs after two weeks; their progress lines go with them. */
export const cleanupJob = upkeepJob({
  name: 'jobs.cleanup',
  describe: 'Nightly',
  cron: '17 3 * * *',
  run: async ({ db }) => {
    const n = await deleteOrphanProgress(db);
    return `Removed ${n} progress ${n === 1 ? 'line' : 'lines'} of deleted runs`;
  },
});
