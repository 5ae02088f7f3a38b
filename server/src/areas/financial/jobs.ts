import { upkeepJob } from '../../platform/jobs';
import { redrawMidParts } from './queries';

/**
 * Hourly: divides the financial filter values' list of every MID and DBA into parts of about 1,000 merchants again
 * when a part has grown to twice that, or the parts are twice as many as needed (migration 2026_12_13_0020). A
 * no-op otherwise; drawing them again makes the next ask of each scope read the list afresh.
 */
export const midPartsJob = upkeepJob({
  name: 'financial.mid-parts',
  describe: 'Hourly: the financial filter’s MID list divided into parts again when one has outgrown them',
  cron: '7 * * * *',
  run: async ({ db }) =>
    (await redrawMidParts(db))
      ? 'Divided the MID list into parts again'
      : 'Every part of the MID list is within its size',
});
