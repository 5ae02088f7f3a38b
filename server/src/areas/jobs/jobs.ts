import { z } from 'zod';
import { defineJob } from '../../platform/jobs';
import { deleteOrphanProgress } from './queries';

/** Nightly: pg-boss deletes runs after two weeks; their progress lines go with them. */
export const cleanupJob = defineJob({
  name: 'jobs.cleanup',
  payload: z.strictObject({}),
  describe: () => 'Nightly',
  retryLimit: 2,
  retryDelaySeconds: 60,
  retryBackoff: true,
  timeoutSeconds: 300,
  schedule: { cron: '17 3 * * *', payload: {} },
  run: async ({ db }) => {
    const n = await deleteOrphanProgress(db);
    return `Removed ${n} progress ${n === 1 ? 'line' : 'lines'} of deleted runs`;
  },
});
