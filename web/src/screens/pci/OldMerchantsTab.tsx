import { Alert, NativeSelect } from '@mantine/core';
import {
  hasPermission,
  PCI_EXPORT_FILES,
  PCI_MERCHANT_STATUS_LABELS,
  PCI_MERCHANT_STATUSES,
  PCI_MESSAGES,
  type PciHistoricColumn,
  type PciMerchantStatus,
  pciEndpoints,
  pciOldMerchantsTable,
} from '@paydesk/domain';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { pciKeys } from '../../app/queryKeys';
import { useSessionUser } from '../../app/session';
import { type CellEditor, EditableCell, type Row } from '../../components/DataTable';
import { ConfirmModal } from '../bonus/ConfirmModal';
import { PciTable } from './PciTable';

const merchantName = (row: Row) => `MID ${String(row.mid)}`;
const statusOf = (value: unknown): PciMerchantStatus => (value === 'C' ? 'C' : '');

/**
 * Old Merchants (spec §2.2, §4; pci_restricted): merchants whose account closed. Holders of historic-merchant
 * editing set the PCI status (Closed to Open asks first) and the T/R and DDA in place; a status shows at once
 * and goes back, under an error banner, if the save fails. Only they see the bank numbers unmasked.
 */
export function OldMerchantsTab() {
  const user = useSessionUser();
  const canEdit = hasPermission(user, 'pci_historic_edit');
  const queryClient = useQueryClient();
  // Statuses chosen but not yet confirmed by a reload: shown at once (spec §4).
  const [shown, setShown] = useState<Record<string, PciMerchantStatus>>({});
  const [reopening, setReopening] = useState<Row | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const save = async (row: Row, column: PciHistoricColumn, value: string) => {
    try {
      await call(pciEndpoints.updateHistoricMerchantStatus, { mid: String(row.mid), column, value });
      setFailure(null);
      // A reopened merchant is billed again: the Merchants table changes too.
      await queryClient.invalidateQueries({ queryKey: pciKeys.tables() });
    } catch (error) {
      setFailure(errorMessage(error, ''));
      throw error;
    }
  };

  const setStatus = async (row: Row, status: PciMerchantStatus) => {
    const mid = String(row.mid);
    setShown((s) => ({ ...s, [mid]: status }));
    try {
      await save(row, 'merchant_status', status);
    } catch {
      // The row shows what is stored again; the banner says why.
    } finally {
      setShown(({ [mid]: _, ...rest }) => rest);
    }
  };

  const choose = (row: Row, status: PciMerchantStatus) => {
    if (statusOf(row.merchant_status) === 'C' && status === '') setReopening(row);
    else void setStatus(row, status);
  };

  const bankEditor = (column: 'aba_number' | 'dda_number', label: string): CellEditor<Row> => ({
    kind: 'text',
    value: (row) => (row[column] === null ? '' : String(row[column])),
    label: (row) => `${label} of ${merchantName(row)}`,
    onSave: (row, value) => save(row, column, value.trim()),
  });
  const tr = bankEditor('aba_number', 'T/R');
  const dda = bankEditor('dda_number', 'DDA');

  const cells: Record<string, (row: Row) => ReactNode> = canEdit
    ? {
        merchant_status: (row: Row) => {
          const mid = String(row.mid);
          const status = shown[mid] ?? statusOf(row.merchant_status);
          return (
            <NativeSelect
              size="xs"
              w={100}
              aria-label={`Status of ${merchantName(row)}`}
              value={status}
              data={PCI_MERCHANT_STATUSES.map((s) => ({ value: s, label: PCI_MERCHANT_STATUS_LABELS[s] }))}
              onChange={(event) => choose(row, statusOf(event.currentTarget.value))}
            />
          );
        },
        aba_number: (row: Row) => (
          <EditableCell row={row} editor={tr}>
            {row.aba_number === null ? '—' : String(row.aba_number)}
          </EditableCell>
        ),
        dda_number: (row: Row) => (
          <EditableCell row={row} editor={dda}>
            {row.dda_number === null ? '—' : String(row.dda_number)}
          </EditableCell>
        ),
      }
    : {};

  return (
    <>
      {failure !== null && (
        <Alert
          color="red"
          variant="light"
          mb="sm"
          icon={<IconAlertTriangle size={18} />}
          title={PCI_MESSAGES.inlineEditFailed}
          role="alert"
          withCloseButton
          onClose={() => setFailure(null)}
        >
          {failure}
        </Alert>
      )}
      <PciTable
        report="pci_old_merchants"
        def={pciOldMerchantsTable}
        endpoints={pciEndpoints.oldMerchantsTable}
        extra={{}}
        label="Old merchants"
        noun="old merchants"
        searchPlaceholder="Search MID or DBA"
        empty={{
          filtered: 'No old merchants match these filters',
          unfiltered: 'No closed merchants',
        }}
        exportFile={PCI_EXPORT_FILES.oldMerchants}
        cells={cells}
        editable={canEdit ? ['merchant_status', 'aba_number', 'dda_number'] : []}
        rowKey={(row) => String(row.mid)}
      />
      <ConfirmModal
        subject={reopening && PCI_MESSAGES.closedToOpen}
        title={reopening ? `Reopen ${merchantName(reopening)} ${String(reopening.dba_name)}` : ''}
        confirmLabel="Change to Open"
        color="blue"
        busy={false}
        error={null}
        onConfirm={() => {
          if (reopening) void setStatus(reopening, '');
          setReopening(null);
        }}
        onClose={() => setReopening(null)}
      />
    </>
  );
}
