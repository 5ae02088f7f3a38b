import { rebuildIsoInfo } from '../../db/derived';
import { upkeepJob } from '../../platform/jobs';

/**
 * Hourly: rebuilds every ISO's GetAllInformation figures (bi_iso_info) when a row is of an earlier day, so the
 * executive ISO list reads kept rows soon after the day turns (until then it counts the merchants). A no-op
 * when every row is of today: merchant changes rebuild their ISOs' rows themselves (db/derived.ts).
 */
export const isoInfoJob = upkeepJob({
  name: 'bi.iso-info',
  describe: 'Hourly: the executive ISO list’s figures for the new day',
  cron: '1 * * * *',
  run: async ({ db }) => {
    const rebuilt = await rebuildIsoInfo(db);
    return rebuilt === 0 ? 'Every ISO’s figures are of today' : `Rebuilt the figures of ${rebuilt} ISOs`;
  },
});
