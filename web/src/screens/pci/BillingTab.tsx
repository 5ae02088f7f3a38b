import { Alert, Button, Collapse, Group, List, Modal, Progress, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  hasPermission,
  MONTH_NAMES,
  PCI_ACH_FILE,
  PCI_EXPORT_FILES,
  type PciSkippedMerchant,
  pciBillingTable,
  pciCommissionsTable,
  pciEndpoints,
  pciPaths,
} from '@paydesk/domain';
import { IconAlertTriangle, IconCalendarMonth, IconFileDollar } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { call, errorMessage, postDownload, saveBlob } from '../../app/api';
import { pciKeys } from '../../app/queryKeys';
import { useSessionUser } from '../../app/session';
import { latestParams } from '../../components/DataTable/useTableState';
import { formatCell } from '../../components/format';
import { PciTable } from './PciTable';
import { billableNow, billingYears, type ChosenMonth, chosenMonth, monthLabel } from './pciMonth';

type Month = { year: number; month: number };

/**
 * The billing month in the address, and a way to change its year or its month (the table's own parameters start
 * over). A change applies to the address as it is now, not as last rendered: the router renders a navigation later
 * (in a transition), and a month picked right after a year would otherwise go back to the old year.
 */
function useChosenMonth(): [ChosenMonth, (change: Partial<ChosenMonth>) => void] {
  const [params, setParams] = useSearchParams();
  const chosen = chosenMonth(params, new Date());
  const choose = (change: Partial<ChosenMonth>) =>
    setParams(() => {
      const latest = latestParams();
      const next = { ...chosenMonth(latest, new Date()), ...change };
      const kept = new URLSearchParams();
      const tab = latest.get('tab');
      if (tab) kept.set('tab', tab);
      kept.set('year', String(next.year));
      if (next.month !== null) kept.set('month', String(next.month));
      return kept;
    });
  return [chosen, choose];
}

function MonthPicker({
  chosen,
  onChange,
}: {
  chosen: ChosenMonth;
  onChange: (change: Partial<ChosenMonth>) => void;
}) {
  return (
    <Group gap="sm" mb="md" align="flex-end">
      <Select
        label="Year"
        w={120}
        data={billingYears(new Date()).map(String)}
        value={String(chosen.year)}
        onChange={(value) => value && onChange({ year: Number(value) })}
        allowDeselect={false}
      />
      <Select
        label="Month"
        w={160}
        placeholder="Choose a month"
        data={MONTH_NAMES.map((name, i) => ({ value: String(i + 1), label: name }))}
        value={chosen.month === null ? null : String(chosen.month)}
        onChange={(value) => onChange({ month: value === null ? null : Number(value) })}
        allowDeselect={false}
      />
    </Group>
  );
}

function NoMonth({ what }: { what: string }) {
  return (
    <Alert color="gray" variant="light" icon={<IconCalendarMonth size={18} />}>
      Choose a month to see its {what}.
    </Alert>
  );
}

/**
 * Billing (spec §2.2, §4): a month's billing rows; nothing loads until a month is chosen. Holders of the
 * billing-run capability run the month's ACH billing file: the rows are written, ACHBilling.txt downloads and
 * the billing reloads. A second run of a month bills nobody again and answers the same file.
 */
export function BillingTab() {
  const user = useSessionUser();
  const canRun = hasPermission(user, 'pci_ach_billing');
  const [chosen, choose] = useChosenMonth();
  const month = chosen.month === null ? null : { year: chosen.year, month: chosen.month };
  return (
    <>
      <MonthPicker chosen={chosen} onChange={choose} />
      {month === null ? (
        <NoMonth what="billing" />
      ) : (
        <>
          {canRun && <BillingRun month={month} />}
          <PciTable
            key={`${month.year}-${month.month}`}
            report="pci_billing"
            def={pciBillingTable}
            endpoints={pciEndpoints.billingTable}
            extra={month}
            label="PCI billing"
            noun="billing rows"
            searchPlaceholder="Search MID or DBA"
            empty={{
              filtered: 'No billing rows match these filters',
              unfiltered: `Nothing billed for ${monthLabel(month)}`,
              unfilteredHint: canRun
                ? 'Run the ACH billing file to bill the month.'
                : 'The month is billed when its ACH billing file is run.',
            }}
            exportFile={PCI_EXPORT_FILES.billing}
          />
        </>
      )}
    </>
  );
}

/** The month's run as recorded, the button that runs it (or downloads its file again), and its outcome. */
function BillingRun({ month }: { month: Month }) {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState(false);
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const run = useQuery({
    queryKey: pciKeys.billingRun(month.year, month.month),
    queryFn: () => call(pciEndpoints.billingRun, month),
  });
  const recorded = run.data?.run ?? null;
  const billable = billableNow(month, new Date());

  const start = async () => {
    setRunning(true);
    setFailure(null);
    try {
      const file = await postDownload(pciPaths.getAchBilling, month, PCI_ACH_FILE);
      saveBlob(file.blob, file.filename);
      setAsking(false);
      notifications.show({
        color: 'teal',
        title: recorded ? 'The billing file was downloaded again' : `${monthLabel(month)} billed`,
        message: `${file.filename} is in your downloads.`,
      });
    } catch (error) {
      setFailure(errorMessage(error, 'The billing could not be run. Try again.'));
    } finally {
      setRunning(false);
      await queryClient.invalidateQueries({ queryKey: pciKeys.all });
    }
  };

  return (
    <Stack gap="xs" mb="md">
      <Group justify="space-between" wrap="nowrap">
        <Text fz="sm" c="dimmed" data-testid="pci-billing-run">
          {run.isPending
            ? 'Looking up the month’s billing run…'
            : recorded
              ? `Billed ${formatCell('datetime', recorded.created_at)} by ${recorded.created_by}: ${recorded.entries} debits, ${formatCell('money', recorded.total_debit)} in all.`
              : billable
                ? `${monthLabel(month)} has not been billed yet.`
                : `${monthLabel(month)} has no billing run. Only the current or the previous month can be billed.`}
        </Text>
        <Button
          leftSection={<IconFileDollar size={16} />}
          onClick={() => (recorded ? void start() : setAsking(true))}
          loading={running && !asking}
          disabled={run.isPending || (!recorded && !billable)}
        >
          {recorded ? `Download ${PCI_ACH_FILE} again` : 'Run ACH Billing File'}
        </Button>
      </Group>
      {recorded && recorded.skipped.length > 0 && <SkippedMerchants skipped={recorded.skipped} />}
      {failure && !asking && (
        <Alert color="red" variant="light" role="alert" withCloseButton onClose={() => setFailure(null)}>
          {failure}
        </Alert>
      )}
      <Modal opened={asking} onClose={() => !running && setAsking(false)} title="Run ACH Billing File">
        <Stack gap="md">
          <Text fz="sm">
            Bill every open merchant for {monthLabel(month)} and download the NACHA debit file {PCI_ACH_FILE}.
            The file debits the merchants’ bank accounts once it is sent to the bank. A month is billed only
            once: running it again downloads the same file.
          </Text>
          {running && (
            <Stack gap={4} role="status">
              <Progress value={100} striped animated aria-label="Billing the month" />
              <Text fz="sm" c="dimmed">
                Billing the month and writing the file… this can take a few seconds.
              </Text>
            </Stack>
          )}
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setAsking(false)} disabled={running}>
              Cancel
            </Button>
            <Button onClick={() => void start()} loading={running}>
              Run and download
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

/** Merchants due a fee but left out of the file (bad or missing bank numbers): listed on demand. */
function SkippedMerchants({ skipped }: { skipped: readonly PciSkippedMerchant[] }) {
  const [open, setOpen] = useState(false);
  const count = skipped.length;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={`${count} merchant${count === 1 ? ' was' : 's were'} left out of the file and not billed: their T/R or DDA is missing or wrong`}
    >
      <Button variant="subtle" color="orange" size="compact-sm" onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide them' : 'Show them'}
      </Button>
      <Collapse expanded={open}>
        <List size="sm" spacing={2} mt={4}>
          {skipped.map((s) => (
            <List.Item key={s.mid}>
              {s.mid} {s.dba_name}: {s.reason}
            </List.Item>
          ))}
        </List>
      </Collapse>
    </Alert>
  );
}

/** Commissions (spec §2.2): a month's billing rows with the ISO's rev share, cost and amount due. */
export function CommissionsTab() {
  const [chosen, choose] = useChosenMonth();
  const month = chosen.month === null ? null : { year: chosen.year, month: chosen.month };
  return (
    <>
      <MonthPicker chosen={chosen} onChange={choose} />
      {month === null ? (
        <NoMonth what="commissions" />
      ) : (
        <PciTable
          key={`${month.year}-${month.month}`}
          report="pci_commissions"
          def={pciCommissionsTable}
          endpoints={pciEndpoints.commissionsTable}
          extra={month}
          label="PCI commissions"
          noun="commissions"
          searchPlaceholder="Search MID, DBA or ISO"
          empty={{
            filtered: 'No commissions match these filters',
            unfiltered: `No commissions for ${monthLabel(month)}`,
            unfilteredHint:
              'Commissions appear once the month is billed, for ISOs with a PCI rev share in effect.',
          }}
          exportFile={PCI_EXPORT_FILES.commissions}
          cells={{ iso_rev_share: (row) => `${String(row.iso_rev_share)}%` }}
        />
      )}
    </>
  );
}
