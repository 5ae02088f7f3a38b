import { adminEndpoints, auditTable } from '@paydesk/domain';
import { useState } from 'react';
import { adminKeys } from '../../app/queryKeys';
import {
  defColumn,
  ServerTable,
  type ServerTableDefinition,
  useServerTable,
} from '../../components/DataTable';
import { TableActions } from '../../components/DataTable/TableActions';
import { ExportModal } from '../../components/ExportModal';
import { PageHeader } from '../../components/PageHeader';

const AUDIT_LOG: ServerTableDefinition<typeof adminEndpoints.auditTable.extra> = {
  def: auditTable,
  endpoints: adminEndpoints.auditTable,
  keys: { page: adminKeys.auditTable, preview: adminKeys.auditPreview },
};

function AuditLog() {
  const audit = useServerTable(AUDIT_LOG, { extra: {}, loadError: 'The audit log could not be loaded.' });
  const { state } = audit.controls;
  const [exporting, setExporting] = useState(false);

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Sign-ins, password changes and administrative changes, newest first. Filter by time, user, action or account."
      />
      <ServerTable
        {...audit.table}
        label="Audit log"
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
        subject={`${audit.narrowed ? 'The entries matching the filters and search in force' : 'Every entry'}, the ${state.columns.length} visible columns, in the order shown. Times are in UTC.`}
        columns={audit.visibleColumns.map(defColumn)}
        previewKey={audit.previewKey}
        loadPreview={audit.loadPreview}
        download={{ ...audit.exportDownload, fallbackName: 'Audit-log.xlsx' }}
      />
    </>
  );
}

export default function AuditScreen() {
  return <AuditLog />;
}
