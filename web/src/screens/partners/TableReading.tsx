import { Badge, Button, Checkbox, Group } from '@mantine/core';
import { type PartnerAccount, partnerEndpoints, partnersTable } from '@paydesk/domain/contracts/partners';
import { IconFileExport, IconListNumbers } from '@tabler/icons-react';
import { useState } from 'react';
import { partnerKeys } from '../../app/queryKeys';
import {
  defColumn,
  type Row,
  ServerTable,
  type ServerTableDefinition,
  useServerTable,
} from '../../components/DataTable';
import { ExportModal } from '../../components/ExportModal';
import { AccountCard } from './AccountCard';
import { AddGroupModal } from './AddGroupModal';
import { statusBadge } from './directory';
import { LastGroupIdsModal } from './LastGroupIdsModal';

const PARTNERS_TABLE: ServerTableDefinition<typeof partnerEndpoints.table.extra> = {
  def: partnersTable,
  endpoints: partnerEndpoints.table,
  keys: { page: partnerKeys.table, preview: partnerKeys.tablePreview },
};

const accountIdOf = (row: Row) => String(row.accountid ?? '');

/**
 * The table reading (spec §2.4): Account Name, Status, Name and RM with the toolkit's filters and paging;
 * a row's checkbox opens its detail card and groups. Editors add groups and see the last utilized group IDs.
 */
export function TableReading({ canEdit, busy }: { canEdit: boolean; busy: boolean }) {
  const table = useServerTable(PARTNERS_TABLE, { extra: {}, loadError: 'The partners could not be loaded.' });
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [exporting, setExporting] = useState(false);
  const [lastIds, setLastIds] = useState(false);
  const [addingTo, setAddingTo] = useState<PartnerAccount | null>(null);

  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      <ServerTable
        {...table.table}
        label="Partners"
        noun="accounts"
        searchPlaceholder="Search account, name or RM"
        empty={{
          filtered: 'No accounts match these filters',
          unfiltered: 'No partner accounts yet',
          unfilteredHint: 'Import from Salesforce brings in every partner account and its groups.',
        }}
        cells={{
          accountname: (row) => {
            const id = accountIdOf(row);
            return (
              <Group gap="xs" wrap="nowrap">
                <Checkbox
                  size="xs"
                  checked={open.has(id)}
                  onChange={() => toggle(id)}
                  aria-label={`Show details of ${String(row.accountname)}`}
                />
                <span>{String(row.accountname ?? '')}</span>
              </Group>
            );
          },
          status: (row) => {
            const { label, color } = statusBadge(row.status as string | null);
            return (
              <Badge color={color} variant="light" radius="xl">
                {label}
              </Badge>
            );
          },
        }}
        expandedRow={(row) => {
          const id = accountIdOf(row);
          return open.has(id) ? (
            <AccountCard accountid={id} canEdit={canEdit} onAddGroup={setAddingTo} />
          ) : null;
        }}
        actions={
          canEdit ? (
            <Button
              variant="default"
              leftSection={<IconListNumbers size={16} />}
              onClick={() => setLastIds(true)}
            >
              Last Utilized Group IDs
            </Button>
          ) : null
        }
        footerActions={
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFileExport size={14} />}
            onClick={() => setExporting(true)}
            disabled={busy}
          >
            Export
          </Button>
        }
      />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title="Export the partners to XLSX"
        subject={`${table.narrowed ? 'The accounts matching the filters and search in force' : 'Every account'}, the visible columns, in the order shown.`}
        columns={table.visibleColumns.map(defColumn)}
        previewKey={table.previewKey}
        loadPreview={table.loadPreview}
        download={{ ...table.exportDownload, fallbackName: 'Partners.xlsx' }}
      />
      <LastGroupIdsModal opened={lastIds} onClose={() => setLastIds(false)} />
      <AddGroupModal account={addingTo} onClose={() => setAddingTo(null)} />
    </>
  );
}
