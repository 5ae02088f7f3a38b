import {
  monthStart,
  reportEndpoints,
  SELF_SERVE_FIRST_MONTH,
  selfServeImportColumns,
  selfServeTable,
} from '@paydesk/domain';
import { MonthReport } from '../../components/MonthReport';

/** Spec document 2 §2.5: merchants open in a month, with the month's activity; May 2016 to now. */
export default function SelfServeScreen() {
  return (
    <MonthReport
      title="Self Serve (BETA)"
      description="Merchants open in the month, with their volume, chargebacks, refunds and income."
      table="selfserve"
      def={selfServeTable}
      endpoints={reportEndpoints.selfServeTable}
      importPath={reportEndpoints.selfServe.import.path}
      firstMonth={SELF_SERVE_FIRST_MONTH}
      lastMonth={monthStart(new Date())}
      noun="merchants"
      searchPlaceholder="Search MID, DBA, legal name or ISO"
      empty={{ filtered: 'No merchants match these filters', unfiltered: 'No merchants for this month' }}
      importColumns={selfServeImportColumns}
      importReplaces={(month) => `the ${month} activity of each MID in the file`}
      fileName={(month) => `SelfServe-${month.slice(0, 7)}.xlsx`}
    />
  );
}
