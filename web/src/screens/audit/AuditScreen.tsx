import { adminEndpoints, adminPaths, auditTable, EXPORT_PREVIEW_ROWS } from '@paydesk/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { adminKeys } from '../../app/queryKeys';
import { defColumn, ServerTable, toTableQuery, useTableState } from '../../components/DataTable';
import { TableActions } from '../../components/DataTable/TableActions';
import { ExportModal } from '../../components/ExportModal';
import { PageHeader } from '../../components/PageHeader';

const previewPageSize = Math.min(...auditTable.pageSizes.filter((s) => s >= EXPORT_PREVIEW_ROWS));

function AuditLog() {
  const controls = useTableState(auditTable);
  const { state } = controls;
  const [exporting, setExporting] = useState(false);
  const body = toTableQuery(state);
  const page = useQuery({
    queryKey: adminKeys.auditTable(body),
    queryFn: () => call(adminEndpoints.auditTable.query, body),
    placeholderData: keepPreviousData,
  });
  const previewBody = { ...body, page: 1, pageSize: previewPageSize };
  const narrowed = state.filters.length > 0 || state.search !== '';

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Sign-ins, password changes and administrative changes, newest first. Filter by time, user, action or account."
      />
      <ServerTable
        label="Audit log"
        def={auditTable}
        controls={controls}
        data={page.data}
        loading={page.isFetching}
        error={page.error ? errorMessage(page.error, 'The audit log could not be loaded.') : null}
        noun="entries"
        searchPlaceholder="Search user or account"
        empty={{
          filtered: 'No entries match these filters',
          unfiltered: 'Nothing recorded yet',
          unfilteredHint: 'Entries appear here as people sign in, change passwords and manage users.',
        }}
        wrapping={['description']}
        actions={<TableActions onExport={() => setExporting(true)} />}
      />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title="Export the audit log to XLSX"
        subject={`${narrowed ? 'The entries matching the filters and search in force' : 'Every entry'}, the ${state.columns.length} visible columns, in the order shown. Times are in UTC.`}
        columns={auditTable.columns.filter((c) => state.columns.includes(c.id)).map(defColumn)}
        previewKey={adminKeys.auditPreview(previewBody)}
        loadPreview={async () => {
          const answer = await call(adminEndpoints.auditTable.query, previewBody);
          return { rows: answer.rows, total: answer.total };
        }}
        download={{
          path: adminPaths.auditExport,
          body: { filters: state.filters, sort: state.sort, search: state.search, columns: state.columns },
          fallbackName: 'Audit-log.xlsx',
        }}
      />
    </>
  );
}

export default function AuditScreen() {
  return <AuditLog />;
}
