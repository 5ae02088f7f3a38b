import {
  ActionIcon,
  Badge,
  Box,
  Group,
  RingProgress,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  BANKS,
  type BankProfileCounts,
  type GoalProgress,
  type MonthCounts,
  monthLabel,
  type PartnerRow,
  PENDING_DAYS,
  PROFILES,
} from '@paydesk/domain';
import { IconArrowRight, IconChevronRight } from '@tabler/icons-react';
import { useMemo } from 'react';
import {
  BANK_COLORS,
  barOption,
  EChart,
  MEASURE_COLORS,
  PROFILE_COLORS,
  pieOption,
} from '../../components/charts';
import { DashCard, Figure } from '../../components/DashCard';
import type { PartnerView, ProfileSplit, YearMonth } from './salesModel';
import { partnerViewTitle } from './salesModel';

interface State {
  loading: boolean;
  failed: boolean;
}

const fmt = (n: number | undefined | null) =>
  n === undefined || n === null ? '—' : n.toLocaleString('en-US');

function progressColor(percent: number | null): string {
  if (percent === null) return 'gray';
  if (percent >= 100) return 'teal';
  if (percent >= 80) return 'yellow';
  return 'red';
}

/** Shown instead of a goal comparison to users whose approvals have no goal (ISO-bound users). */
export const NO_GOAL_NOTE =
  'Approval goals are the company’s internal targets and none is set for your ISO, so your approvals are shown without a goal.';

export function GoalCard({
  progress,
  approved,
  monthName,
  live,
  onDownload,
  ...state
}: State & {
  /** null: no goal to compare with. */
  progress: GoalProgress | null | undefined;
  approved: number | undefined;
  monthName: string;
  live: boolean;
  onDownload: () => void;
}) {
  const percent = progress?.percent ?? null;
  const color = progressColor(percent);
  if (progress === null)
    return (
      <DashCard
        title="Approvals"
        subtitle={`${monthName}${live ? ' so far' : ''}`}
        onDownload={onDownload}
        testId="card-goal"
        {...state}
      >
        {approved !== undefined && (
          <Stack gap="sm" data-testid="goal-none">
            <Figure
              label="Approved"
              value={approved}
              color={MEASURE_COLORS.approved}
              testId="goal-approved"
            />
            <Text fz="sm" c="dimmed">
              {NO_GOAL_NOTE}
            </Text>
          </Stack>
        )}
      </DashCard>
    );
  return (
    <DashCard
      title="Goal progress"
      subtitle={
        live
          ? `${monthName}: approvals against the goal prorated to the business days so far`
          : `${monthName}: approvals against the month’s goal`
      }
      onDownload={onDownload}
      testId="card-goal"
      {...state}
    >
      {progress && (
        <Group wrap="nowrap" gap="lg" align="center">
          <RingProgress
            size={150}
            thickness={14}
            roundCaps
            sections={[{ value: Math.min(100, percent ?? 0), color }]}
            label={
              <Stack gap={0} align="center">
                <Text fz={22} fw={750} c={`${color}.8`} data-testid="goal-percent" lh={1}>
                  {percent === null ? '—' : `${percent}%`}
                </Text>
                <Text fz={11} c="dimmed">
                  of {live ? 'prorated ' : ''}goal
                </Text>
              </Stack>
            }
          />
          <Stack gap="sm">
            <Figure
              label="Approved"
              value={progress.approved}
              color={MEASURE_COLORS.approved}
              testId="goal-approved"
            />
            <Group gap="lg">
              {live && (
                <Figure
                  label="Prorated goal"
                  value={progress.proratedGoal}
                  size={20}
                  testId="goal-prorated"
                />
              )}
              <Figure label="Month goal" value={progress.goal} size={20} testId="goal-full" />
            </Group>
            <Text fz="xs" c="dimmed">
              {progress.elapsedBusinessDays} of {progress.businessDays} business days counted
            </Text>
          </Stack>
        </Group>
      )}
    </DashCard>
  );
}

export function DayCard({
  title,
  submitted,
  approved,
  onDownload,
  testId,
  ...state
}: State & {
  title: string;
  submitted: ProfileSplit | undefined;
  approved: ProfileSplit | undefined;
  onDownload: () => void;
  testId: string;
}) {
  return (
    <DashCard
      title={title}
      subtitle="Submitted and approved by profile"
      onDownload={onDownload}
      testId={testId}
      {...state}
    >
      <Group gap="xl" mb="sm">
        <Figure
          label="Submitted"
          value={submitted?.total}
          color={MEASURE_COLORS.submitted}
          size={36}
          testId={`${testId}-submitted`}
        />
        <Figure
          label="Approved"
          value={approved?.total}
          color={MEASURE_COLORS.approved}
          size={36}
          testId={`${testId}-approved`}
        />
      </Group>
      <Table fz="sm" verticalSpacing={4} horizontalSpacing="xs" aria-label={`${title} by profile`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Profile</Table.Th>
            <Table.Th ta="right">Submitted</Table.Th>
            <Table.Th ta="right">Approved</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {PROFILES.map((profile) => (
            <Table.Tr key={profile}>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Box w={10} h={10} style={{ borderRadius: 3, background: PROFILE_COLORS[profile] }} />
                  {profile}
                </Group>
              </Table.Td>
              <Table.Td ta="right" fw={500}>
                {fmt(submitted?.[profile])}
              </Table.Td>
              <Table.Td ta="right" fw={500}>
                {fmt(approved?.[profile])}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </DashCard>
  );
}

export function MonthTotalsCard({
  totals,
  monthName,
  onDownload,
  ...state
}: State & {
  totals: { Submitted: number; Approved: number; Closed: number } | undefined;
  monthName: string;
  onDownload: () => void;
}) {
  const option = useMemo(
    () =>
      totals
        ? barOption({
            categories: ['Submitted', 'Approved', 'Closed'],
            bars: [
              {
                name: monthName,
                values: [totals.Submitted, totals.Approved, totals.Closed],
                color: MEASURE_COLORS.submitted,
                colors: [MEASURE_COLORS.submitted, MEASURE_COLORS.approved, MEASURE_COLORS.closed],
                labels: true,
              },
            ],
            legend: false,
          })
        : undefined,
    [totals, monthName],
  );
  return (
    <DashCard
      title={`${monthName} at a glance`}
      subtitle="Applications submitted and approved, merchants closed"
      onDownload={onDownload}
      testId="card-month"
      {...state}
    >
      {totals && option && (
        <>
          <Group gap="xl" mb={4}>
            <Figure
              label="Submitted"
              value={totals.Submitted}
              color={MEASURE_COLORS.submitted}
              testId="month-submitted"
            />
            <Figure
              label="Approved"
              value={totals.Approved}
              color={MEASURE_COLORS.approved}
              testId="month-approved"
            />
            <Figure
              label="Closed"
              value={totals.Closed}
              color={MEASURE_COLORS.closed}
              testId="month-closed"
            />
          </Group>
          <EChart
            option={option}
            height={170}
            label={`${monthName}: ${totals.Submitted} submitted, ${totals.Approved} approved, ${totals.Closed} closed`}
          />
        </>
      )}
    </DashCard>
  );
}

type ApprovedMonth = Omit<MonthCounts, 'Submitted' | 'Closed'>;

export function SharePieCard({
  title,
  kind,
  approvals,
  onDownload,
  testId,
  ...state
}: State & {
  title: string;
  kind: 'bank' | 'profile';
  approvals: [ApprovedMonth, BankProfileCounts] | undefined;
  onDownload: () => void;
  testId: string;
}) {
  const month = approvals?.[0];
  const slices = useMemo(() => {
    if (!month) return [];
    return kind === 'bank'
      ? BANKS.map((bank) => ({ name: bank, value: month[bank], color: BANK_COLORS[bank] ?? '#868e96' }))
      : PROFILES.map((profile) => ({
          name: profile,
          value: month[profile === 'High Risk' ? 'HighRisk' : profile],
          color: PROFILE_COLORS[profile] ?? '#868e96',
        }));
  }, [month, kind]);
  const option = useMemo(() => pieOption({ name: title, slices }), [title, slices]);
  const total = month?.Approved ?? 0;
  return (
    <DashCard
      title={title}
      subtitle={`${fmt(total)} approvals`}
      onDownload={onDownload}
      testId={testId}
      {...state}
    >
      {month && total === 0 && (
        <Text c="dimmed" fz="sm" py="xl" ta="center">
          No approvals in this month yet, so there is nothing to split.
        </Text>
      )}
      {month && total > 0 && (
        <Group wrap="nowrap" align="center" gap="sm">
          <Box w="50%">
            <EChart
              option={option}
              height={190}
              label={`${title}: ${slices.map((s) => `${s.name} ${s.value}`).join(', ')}`}
            />
          </Box>
          <Stack gap={6} w="50%" role="list" aria-label={`${title} legend`}>
            {slices.map((slice) => (
              <Group key={slice.name} gap={8} wrap="nowrap" justify="space-between" role="listitem">
                <Group gap={6} wrap="nowrap">
                  <Box w={10} h={10} style={{ borderRadius: 3, background: slice.color, flex: 'none' }} />
                  <Text fz="sm">{slice.name}</Text>
                </Group>
                <Text
                  fz="sm"
                  fw={650}
                  style={{ fontVariantNumeric: 'tabular-nums' }}
                  data-testid={`${testId}-${slice.name}`}
                >
                  {fmt(slice.value)}
                  <Text span fz="xs" c="dimmed" fw={400} ml={6}>
                    {Math.round((slice.value / total) * 100)}%
                  </Text>
                </Text>
              </Group>
            ))}
          </Stack>
        </Group>
      )}
    </DashCard>
  );
}

const SHORT_MONTH = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });

export function YearCard({
  rows,
  withGoals,
  year,
  selectedMonth,
  onDownload,
  ...state
}: State & {
  rows: YearMonth[] | undefined;
  /** False for a user with no goals (ISO-bound): approvals alone, no goal bars or line. */
  withGoals: boolean;
  year: string;
  selectedMonth: string;
  onDownload: () => void;
}) {
  const option = useMemo(
    () =>
      rows
        ? barOption({
            categories: rows.map((r) => SHORT_MONTH(r.Month)),
            bars: [
              {
                name: 'Approved',
                values: rows.map((r) => r.Approved),
                color: MEASURE_COLORS.approved,
                colors: rows.map((r) =>
                  `${r.Month}-01` === selectedMonth ? '#1b6e2e' : MEASURE_COLORS.approved,
                ),
                stack: 'goal',
                labels: true,
              },
              ...(withGoals
                ? [
                    {
                      name: 'Short of goal due',
                      values: rows.map((r) =>
                        r.goalDue === null || r.Approved === null
                          ? null
                          : Math.max(0, r.goalDue - r.Approved),
                      ),
                      color: '#b2f2bb',
                      stack: 'goal',
                    },
                  ]
                : []),
            ],
            lines: withGoals
              ? [{ name: 'Goal due', values: rows.map((r) => r.goalDue), color: MEASURE_COLORS.goal }]
              : [],
            legend: withGoals,
          })
        : undefined,
    [rows, selectedMonth, withGoals],
  );
  const approved = rows?.reduce((n, r) => n + (r.Approved ?? 0), 0) ?? 0;
  const due = rows?.reduce((n, r) => n + (r.goalDue ?? 0), 0) ?? 0;
  return (
    <DashCard
      title={withGoals ? `${year} approvals against goals` : `${year} approvals`}
      subtitle={
        rows
          ? withGoals
            ? `${fmt(approved)} approved of ${fmt(Math.round(due))} due so far; this month’s goal is prorated by business days`
            : `${fmt(approved)} approved. ${NO_GOAL_NOTE}`
          : undefined
      }
      onDownload={onDownload}
      testId="card-year"
      skeleton={240}
      {...state}
    >
      {option && rows && (
        <EChart
          option={option}
          height={260}
          label={`${year}: ${rows
            .filter((r) => r.Approved !== null)
            .map((r) => `${r.Month} ${r.Approved}${r.goalDue === null ? '' : ` of ${r.goalDue} due`}`)
            .join(', ')}`}
        />
      )}
    </DashCard>
  );
}

export function PendingCard({
  rows,
  onDownload,
  ...state
}: State & {
  rows: { Lvl: string; over45: number; all: number | undefined }[] | undefined;
  onDownload: () => void;
}) {
  const total = rows?.reduce((n, r) => n + r.over45, 0);
  return (
    <DashCard
      title={`Pending over ${PENDING_DAYS} days`}
      subtitle={`Applications waiting more than ${PENDING_DAYS} days, by level`}
      onDownload={onDownload}
      testId="card-pending"
      {...state}
    >
      {rows && (
        <Stack gap="md">
          <Figure
            label="Pending over 45 days"
            value={total}
            color="orange.8"
            size={36}
            testId="pending-total"
          />
          <SimpleGrid cols={3} spacing="xs">
            {rows.map((row) => (
              <Box key={row.Lvl} p="xs" bg="orange.0" style={{ borderRadius: 8 }}>
                <Text fz={24} fw={700} lh={1.1} data-testid={`pending-${row.Lvl}`}>
                  {fmt(row.over45)}
                </Text>
                <Text fz="xs" fw={600} c="dimmed">
                  {row.Lvl.replace(/^Level/, 'Level ')}
                </Text>
                {row.all !== undefined && (
                  <Text fz={11} c="dimmed">
                    of {fmt(row.all)} pending
                  </Text>
                )}
              </Box>
            ))}
          </SimpleGrid>
        </Stack>
      )}
    </DashCard>
  );
}

const PARTNER_COUNT: Record<PartnerView, Array<{ key: keyof PartnerRow; label: string; color: string }>> = {
  approved: [{ key: 'appCount', label: 'Approved', color: MEASURE_COLORS.approved }],
  closed: [{ key: 'closureCount', label: 'Closed', color: MEASURE_COLORS.closed }],
  today: [
    { key: 'subCount', label: 'Submitted', color: MEASURE_COLORS.submitted },
    { key: 'appCount', label: 'Approved', color: MEASURE_COLORS.approved },
  ],
};

export function PartnerCard({
  title,
  view,
  views,
  rows,
  month,
  onNext,
  nextLabel,
  onRow,
  onDownload,
  totals,
  testId,
  ...state
}: State & {
  title: string;
  view: PartnerView;
  /** The views this table steps through, for the step indicator. */
  views: readonly PartnerView[];
  rows: PartnerRow[] | undefined;
  month: string;
  onNext: (() => void) | null;
  nextLabel: string;
  onRow: (iso: string) => void;
  onDownload: () => void;
  totals?: string;
  testId: string;
}) {
  const counts = PARTNER_COUNT[view];
  const viewTitle = partnerViewTitle(view, monthLabel(month));
  const max = Math.max(
    1,
    ...(rows ?? []).map((r) => Number(r[counts[counts.length - 1]?.key ?? 'appCount'] ?? 0)),
  );
  const sum = (key: keyof PartnerRow) => (rows ?? []).reduce((n, r) => n + Number(r[key] ?? 0), 0);
  return (
    <DashCard
      title={title}
      subtitle={
        <>
          <Text span fz="xs" fw={650} c="dark.4" data-testid={`${testId}-view`}>
            {viewTitle}
          </Text>
          {totals ? ` · ${totals}` : ''}
        </>
      }
      onDownload={onDownload}
      actions={
        onNext && (
          <Group gap={4} wrap="nowrap">
            {views.length > 1 && (
              <Group gap={3} aria-hidden>
                {views.map((v) => (
                  <Box
                    key={v}
                    w={7}
                    h={7}
                    style={{
                      borderRadius: 7,
                      background:
                        v === view ? 'var(--mantine-color-indigo-6)' : 'var(--mantine-color-gray-3)',
                    }}
                  />
                ))}
              </Group>
            )}
            <Tooltip label={nextLabel} withArrow>
              <ActionIcon variant="light" aria-label={nextLabel} onClick={onNext}>
                <IconArrowRight size={18} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )
      }
      testId={testId}
      {...state}
    >
      {rows && rows.length === 0 && (
        <Text c="dimmed" fz="sm" py="xl" ta="center">
          {view === 'today'
            ? 'No partner has submitted or had an approval today yet.'
            : view === 'closed'
              ? 'No merchant of any partner closed in this month.'
              : 'No partner has an approval in this month yet.'}
        </Text>
      )}
      {rows && rows.length > 0 && (
        <>
          <ScrollArea.Autosize mah={330} type="auto" offsetScrollbars>
            <Table
              stickyHeader
              highlightOnHover
              fz="sm"
              verticalSpacing={5}
              horizontalSpacing="xs"
              aria-label={`${title}: ${viewTitle}`}
            >
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={32}>#</Table.Th>
                  <Table.Th>Partner</Table.Th>
                  {counts.map((c) => (
                    <Table.Th key={c.key} ta="right" w={view === 'today' ? 90 : 160}>
                      {c.label}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row, index) => (
                  <Table.Tr key={row.ISO} style={{ cursor: 'pointer' }} onClick={() => onRow(row.ISO)}>
                    <Table.Td c="dimmed">{index + 1}</Table.Td>
                    <Table.Td>
                      <UnstyledButton
                        fz="sm"
                        fw={500}
                        onClick={(event) => {
                          event.stopPropagation();
                          onRow(row.ISO);
                        }}
                        aria-label={`Merchants of ${row.ISO}`}
                        style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
                      >
                        {row.ISO}
                        <IconChevronRight size={14} color="var(--mantine-color-gray-5)" />
                      </UnstyledButton>
                    </Table.Td>
                    {counts.map((c) => {
                      const value = Number(row[c.key] ?? 0);
                      return (
                        <Table.Td key={c.key} ta="right">
                          <Group gap={8} justify="flex-end" wrap="nowrap">
                            {view !== 'today' && (
                              <Box
                                h={8}
                                w={Math.max(2, Math.round((value / max) * 90))}
                                style={{ borderRadius: 4, background: c.color, opacity: 0.75 }}
                                aria-hidden
                              />
                            )}
                            <Text
                              span
                              fz="sm"
                              fw={650}
                              w={36}
                              ta="right"
                              style={{ fontVariantNumeric: 'tabular-nums' }}
                            >
                              {fmt(value)}
                            </Text>
                          </Group>
                        </Table.Td>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
          <Group justify="space-between" mt="xs">
            <Text fz="xs" c="dimmed">
              {rows.length} {rows.length === 1 ? 'partner' : 'partners'} · click a partner for its merchants
            </Text>
            <Group gap={6}>
              {counts.map((c) => (
                <Badge key={c.key} variant="light" color="gray" data-testid={`${testId}-total-${c.key}`}>
                  {c.label}: {fmt(sum(c.key))}
                </Badge>
              ))}
            </Group>
          </Group>
        </>
      )}
    </DashCard>
  );
}
