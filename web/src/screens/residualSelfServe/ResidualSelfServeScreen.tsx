import {
  addMonths,
  monthStart,
  RESIDUAL_FIRST_MONTH,
  RESIDUAL_LAG_MONTHS,
  reportEndpoints,
  residualImportColumns,
  residualTable,
} from '@paydesk/domain';
import { MonthReport } from '../../components/MonthReport';

/** Spec document 2 §2.6: residual rows of a month; January 2021 to two months before now. */
export default function ResidualSelfServeScreen() {
  return (
    <MonthReport
      title="Residual Self Serve (BETA)"
      description={`Residuals per merchant and processor. The latest month is ${RESIDUAL_LAG_MONTHS} months back, once processors have reported.`}
      table="residual"
      def={residualTable}
      endpoints={reportEndpoints.residualTable}
      importPath={reportEndpoints.residual.import.path}
      firstMonth={RESIDUAL_FIRST_MONTH}
      lastMonth={addMonths(monthStart(new Date()), -RESIDUAL_LAG_MONTHS)}
      noun="rows"
      searchPlaceholder="Search MID, DBA or agent"
      empty={{ filtered: 'No rows match these filters', unfiltered: 'No rows for this month' }}
      importColumns={residualImportColumns}
      importReplaces={() => 'the residuals of each processor and month in the file'}
      fileName={(month) => `ResidualSelfServe-${month.slice(0, 7)}.xlsx`}
    />
  );
}
