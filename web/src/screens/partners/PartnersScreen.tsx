import { Group, SegmentedControl } from '@mantine/core';
import { hasPermission } from '@paydesk/domain/access';
import { useSearchParams } from 'react-router';
import { useSessionUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { CrmImportButton, CrmImportText } from './CrmImportStatus';
import { SearchReading } from './SearchReading';
import { TableReading } from './TableReading';
import { useCrmImport } from './useCrmImport';

type Reading = 'search' | 'table';

/**
 * Spec document 2 §2.4: the partner directory in its two documented readings, chosen on the page and kept in
 * the URL (?view=table). Import from Salesforce is offered in both.
 */
export default function PartnersScreen() {
  const user = useSessionUser();
  const [params, setParams] = useSearchParams();
  const reading: Reading = params.get('view') === 'table' ? 'table' : 'search';
  const crm = useCrmImport();
  const busy = crm.phase === 'started';

  return (
    <>
      <PageHeader
        title="Partners"
        description={
          user.iso
            ? `${user.iso.name}: your account and its processing groups.`
            : 'The ISOs that sell PayDesk merchant accounts, their processing groups and rev shares, synced from Salesforce.'
        }
        actions={<CrmImportButton crm={crm} />}
      />
      {/* The import's status sits beside the switch, so the header does not reflow while it runs. */}
      <Group mb="sm" justify="space-between" mih={44}>
        <SegmentedControl
          aria-label="Reading"
          value={reading}
          // Each reading has its own parameters (search and page, or the table's); switching starts afresh.
          onChange={(value) => setParams(value === 'table' ? { view: 'table' } : {})}
          data={[
            { value: 'search', label: 'Search' },
            { value: 'table', label: 'Table' },
          ]}
        />
        <CrmImportText crm={crm} />
      </Group>
      {reading === 'table' ? (
        <TableReading canEdit={hasPermission(user, 'partners_edit')} busy={busy} />
      ) : (
        <SearchReading canImport={hasPermission(user, 'import_reports')} busy={busy} />
      )}
    </>
  );
}
