import type { Migration } from 'kysely';
import * as platform from './2026_11_21_0001_platform';
import * as merchantData from './2026_11_21_0002_merchant_data';
import * as activityRollup from './2026_11_21_0003_activity_rollup';
import * as selfServeRows from './2026_11_21_0004_selfserve_rows';
import * as sortIndexes from './2026_11_21_0005_sort_indexes';
import * as rollupIsoRows from './2026_11_21_0006_rollup_iso_rows';

/** Every migration, in order. A new one is added here under its timestamped name. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_platform': platform,
  '2026_11_21_0002_merchant_data': merchantData,
  '2026_11_21_0003_activity_rollup': activityRollup,
  '2026_11_21_0004_selfserve_rows': selfServeRows,
  '2026_11_21_0005_sort_indexes': sortIndexes,
  '2026_11_21_0006_rollup_iso_rows': rollupIsoRows,
};
