import { Badge, Group, Paper, SimpleGrid, Skeleton, Text, UnstyledButton } from '@mantine/core';
import {
  ISO_STATUSES,
  type IsoStatus,
  isoEndpoints,
  isoPartnersTable,
  isoPartnersTableEndpoints,
  monthLabel,
  monthStart,
  SALES_FIRST_MONTH,
} from '@paydesk/domain';
import { useState } from 'react';
import { salesKeys } from '../../app/queryKeys';
import { STATUS_COLORS } from '../../components/charts';
import {
  defColumn,
  ServerTable,
  type ServerTableDefinition,
  useServerTable,
} from '../../components/DataTable';
import { TableActions } from '../../components/DataTable/TableActions';
import { DetailModal } from '../../components/DetailModal';
import { ExportModal } from '../../components/ExportModal';
import { MonthSelect, useMonthParam } from '../../components/MonthSelect';
import { PageHeader } from '../../components/PageHeader';
import { todayIso } from '../sales/salesModel';
import { useSalesCall } from '../sales/useSalesDashboard';
import {
  byStatus,
  ISO_TABLE_ON_SCREEN,
  STATUS_LABELS,
  STATUS_RULES,
  statusBody,
  statusFileName,
} from './isoModel';

const ISO_PARTNERS: ServerTableDefinition<typeof isoPartnersTableEndpoints.extra> = {
  def: ISO_TABLE_ON_SCREEN,
  endpoints: isoPartnersTableEndpoints,
  keys: { page: salesKeys.isoTable, preview: salesKeys.isoPreview },
};

/** Spec document 3 §2.6: partner status for a month, and each partner's approvals this and last month and year. */
export default function IsoPerformanceScreen() {
  const current = monthStart(new Date());
  const [month, setMonth] = useMonthParam(SALES_FIRST_MONTH, current, current);
  const iso = useServerTable(ISO_PARTNERS, {
    extra: { month },
    loadError: 'The partners could not be loaded.',
  });
  const statuses = useSalesCall(isoEndpoints.partnersStatus, statusBody(month, todayIso()), { live: false });
  const [exporting, setExporting] = useState(false);
  const [status, setStatus] = useState<IsoStatus | null>(null);
  const { state } = iso.controls;
  const label = monthLabel(month);
  const groups = statuses.data ? byStatus(statuses.data) : undefined;

  return (
    <>
      <PageHeader
        title="ISO Performance"
        description={`Partner status in ${label}, and each partner’s approvals this month, last month, this year and last year.`}
        actions={<MonthSelect value={month} onChange={setMonth} min={SALES_FIRST_MONTH} max={current} />}
      />

      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" mb="lg">
        {ISO_STATUSES.map((s) => (
          <UnstyledButton
            key={s}
            onClick={() => setStatus(s)}
            disabled={!groups}
            aria-label={`${STATUS_LABELS[s]} partners`}
            data-testid={`status-${s}`}
            h="100%"
          >
            <Paper
              withBorder
              radius="md"
              p="md"
              h="100%"
              style={{ borderLeft: `5px solid var(--mantine-color-${STATUS_COLORS[s]}-6)` }}
            >
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <div>
                  <Text fz="xs" tt="uppercase" fw={700} c="dimmed" style={{ letterSpacing: 0.4 }}>
                    {STATUS_LABELS[s]}
                  </Text>
                  {groups ? (
                    <Text fz={34} fw={750} lh={1.15} data-testid={`status-count-${s}`}>
                      {groups[s].length.toLocaleString('en-US')}
                    </Text>
                  ) : statuses.failed ? (
                    <Text fz="sm" c="dimmed" py={8}>
                      Not available right now
                    </Text>
                  ) : (
                    <Skeleton h={36} w={70} mt={4} />
                  )}
                  <Text fz="xs" c="dimmed">
                    {STATUS_RULES[s]}
                  </Text>
                </div>
                <Badge color={STATUS_COLORS[s]} variant="light" style={{ flex: 'none' }}>
                  View list
                </Badge>
              </Group>
            </Paper>
          </UnstyledButton>
        ))}
      </SimpleGrid>

      <ServerTable
        {...iso.table}
        label="ISO partners"
        noun="partners"
        searchPlaceholder="Search partner or RM"
        empty={{ filtered: 'No partners match these filters', unfiltered: 'No partners to show' }}
        actions={<TableActions onExport={() => setExporting(true)} />}
      />

      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title="Export ISO performance to XLSX"
        subject={`${label}, ${iso.narrowed ? 'with the filters and search in force' : 'all partners'}, the ${state.columns.length} visible columns, in the order shown.`}
        columns={isoPartnersTable.columns.filter((c) => state.columns.includes(c.id)).map(defColumn)}
        previewKey={iso.previewKey}
        loadPreview={iso.loadPreview}
        download={{ ...iso.exportDownload, fallbackName: `ISO-Performance-${month.slice(0, 7)}.xlsx` }}
      />

      <DetailModal
        opened={status !== null}
        onClose={() => setStatus(null)}
        title={status ? `${STATUS_LABELS[status]} partners, ${label}` : ''}
        subject={
          status
            ? `${STATUS_RULES[status]}, as of ${label}. The status counts approvals: “Last approval” is the date it turns on; “Last application” is the latest submitted, approved or not.`
            : undefined
        }
        datasets={
          status && groups
            ? [
                {
                  title: `${STATUS_LABELS[status]} partners`,
                  columns: [
                    { key: 'iso_name', header: 'Partner' },
                    { key: 'latest_approval_date', header: 'Last approval' },
                    { key: 'latest_app_date', header: 'Last application' },
                  ],
                  rows: groups[status] as unknown as Record<string, unknown>[],
                },
              ]
            : undefined
        }
        fileName={() => statusFileName(status ?? 'Active', month)}
      />
    </>
  );
}
