import { type AchClassification, entryDescriptionLabel, returnCodeLabel } from '@paydesk/domain';
import type { AchRow } from './achEdit';

/** How a row is named in labels and titles: "MID 4417010000012345, return #1201". */
export function achRowName(row: AchRow): string {
  const historic = Number(row.historic) === 1 ? ' (historic)' : '';
  return `MID ${String(row.IndividualIdentificationNumber ?? '')}, return #${String(row.main_unique_key)}${historic}`;
}

/** The return code as shown: 'R01 NSF'. */
export const returnCodeText = (row: AchRow) => returnCodeLabel(row.AddendaRelated as string | null);

/** The entry description as shown: 'Daily Disc', or the fees as 'October Fees' (entry date less 15 days). */
export const entryDescriptionText = (row: AchRow) =>
  entryDescriptionLabel(
    row.CompanyEntryDescription as string | null,
    row.EffectiveEntryDATE as string | null,
  );

/** What each classification means, for the badge's tooltip (spec §4). */
export const CLASSIFICATION_MEANING: Record<AchClassification, string> = {
  NOC: 'Notification of change: a C code with no money',
  resurrect: 'Written off or sent to collections, yet the merchant may still be collected from',
  unresolved: 'No resolution yet, or waiting to be sent to collections',
  'reject closed': 'Resolved',
};
