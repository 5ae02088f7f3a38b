import { Badge, Grid, Group, Text } from '@mantine/core';
import { LIVE_REFRESH_MS, monthLabel, SALES_FIRST_MONTH } from '@paydesk/domain';
import { useState } from 'react';
import { useSessionUser } from '../../app/session';
import { MonthSelect } from '../../components/MonthSelect';
import { PageHeader } from '../../components/PageHeader';
import {
  DayCard,
  GoalCard,
  MonthTotalsCard,
  NO_GOAL_NOTE,
  PartnerCard,
  PendingCard,
  SharePieCard,
  YearCard,
} from './cards';
import { banksByProfile, partnerDataset, percentOf, profilesByBank, profilesByDay } from './details';
import {
  type DetailSpec,
  PartnerMerchantsModal,
  type PartnerPick,
  SalesDetailModal,
} from './SalesDetailModal';
import {
  cntrOfMonth,
  nextInHouseView,
  nextPartnerView,
  type PartnerView,
  partnerViewTitle,
  viewFor,
} from './salesModel';
import { useCntrParam, useSalesDashboard } from './useSalesDashboard';

function greeting(hour: number): string {
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

const PARTNER_VIEWS_LIVE: readonly PartnerView[] = ['approved', 'closed', 'today'];
const PARTNER_VIEWS_PAST: readonly PartnerView[] = ['approved', 'closed'];

/** Spec document 1 §2 "Sales dashboard": live cards for the current month, summary cards for past ones. */
export default function SalesScreen() {
  const user = useSessionUser();
  const { cntr, current, setCntr } = useCntrParam();
  const d = useSalesDashboard(cntr, current);
  const [partnerView, setPartnerView] = useState<PartnerView>('approved');
  const [inHouseView, setInHouseView] = useState<PartnerView>('approved');
  const [detail, setDetail] = useState<DetailSpec | null>(null);
  const [pick, setPick] = useState<PartnerPick | null>(null);

  const monthName = monthLabel(d.month);
  const year = d.month.slice(0, 4);
  const shownPartnerView = viewFor(partnerView, d.live, false);
  const shownInHouseView = viewFor(inHouseView, d.live, true);
  const partners = d.partners[shownPartnerView];
  const inHouse = d.inHouse[shownInHouseView];

  const openGoal = () => {
    const p = d.goal.progress;
    if (p === null) {
      setDetail({
        title: `Approvals, ${monthName}`,
        subject: NO_GOAL_NOTE,
        datasets: [],
        approvals: { from: d.month, to: d.lastDay, title: `Approvals in ${monthName}` },
      });
      return;
    }
    if (!p) return;
    setDetail({
      title: `Goal progress, ${monthName}`,
      subject: `Approvals from ${d.month} to ${d.lastDay} against the month’s goal prorated by elapsed business days.`,
      datasets: [
        {
          title: 'Goal progress',
          columns: [
            { key: 'month', header: 'Month' },
            { key: 'approved', header: 'Approved', numeric: true },
            { key: 'proratedGoal', header: 'Prorated goal', numeric: true },
            { key: 'goal', header: 'Month goal', numeric: true },
            { key: 'percent', header: '% of prorated goal', numeric: true },
            { key: 'elapsed', header: 'Business days counted', numeric: true },
            { key: 'businessDays', header: 'Business days in month', numeric: true },
          ],
          rows: [
            {
              month: monthName,
              approved: p.approved,
              proratedGoal: p.proratedGoal,
              goal: p.goal,
              percent: p.percent,
              elapsed: p.elapsedBusinessDays,
              businessDays: p.businessDays,
            },
          ],
        },
      ],
      approvals: { from: d.month, to: d.lastDay, title: `Approvals in ${monthName}` },
    });
  };

  const openDay = (which: 'today' | 'yesterday') => {
    const day = which === 'today' ? d.todayByProfile : d.yesterdayByProfile;
    if (!day.submitted || !day.approved) return;
    const date = which === 'today' ? d.today : d.yesterday;
    setDetail({
      title: `${which === 'today' ? 'Today' : 'Yesterday'} (${date}) by profile`,
      datasets: [profilesByDay(day.submitted, day.approved)],
      approvals: { from: date, to: date, title: `Approvals on ${date}` },
    });
  };

  const openMonth = () => {
    const t = d.monthTotals.data;
    if (!t) return;
    setDetail({
      title: `${monthName} at a glance`,
      datasets: [
        {
          title: 'Month totals',
          columns: [
            { key: 'measure', header: 'Measure' },
            { key: 'count', header: 'Count', numeric: true },
          ],
          rows: [
            { measure: 'Submitted', count: t.Submitted },
            { measure: 'Approved', count: t.Approved },
            { measure: 'Closed', count: t.Closed },
          ],
        },
      ],
      approvals: { from: d.month, to: d.lastDay, title: `Approvals in ${monthName}` },
    });
  };

  const openShare = (kind: 'bank' | 'profile') => {
    const a = d.approvals.data;
    if (!a) return;
    setDetail({
      title: kind === 'bank' ? `Approvals by platform, ${monthName}` : `Approvals by profile, ${monthName}`,
      datasets: [kind === 'bank' ? banksByProfile(a[0], a[1]) : profilesByBank(a[0], a[1])],
    });
  };

  const openYear = () => {
    const rows = d.year.data;
    if (!rows) return;
    const begun = rows.filter((r) => r.Approved !== null);
    setDetail(
      d.year.withGoals
        ? {
            title: `${year} approvals against goals`,
            subject:
              'Each month against the goal due by today: the current month’s goal prorated by elapsed business days, as on the goal card.',
            datasets: [
              {
                title: `${year} by month`,
                columns: [
                  { key: 'Month', header: 'Month' },
                  { key: 'Approved', header: 'Approved', numeric: true },
                  { key: 'goalDue', header: 'Goal due', numeric: true },
                  { key: 'monthGoal', header: 'Month goal', numeric: true },
                  { key: 'percent', header: '% of goal due', numeric: true },
                ],
                rows: begun.map((r) => ({ ...r, percent: percentOf(r.Approved ?? 0, r.goalDue ?? 0) })),
              },
            ],
          }
        : {
            title: `${year} approvals`,
            subject: NO_GOAL_NOTE,
            datasets: [
              {
                title: `${year} by month`,
                columns: [
                  { key: 'Month', header: 'Month' },
                  { key: 'Approved', header: 'Approved', numeric: true },
                ],
                rows: begun.map((r) => ({ Month: r.Month, Approved: r.Approved })),
              },
            ],
          },
    );
  };

  const openPending = () => {
    const rows = d.pending.data;
    if (!rows) return;
    setDetail({
      title: 'Pending applications by level',
      datasets: [
        {
          title: 'Pending by level',
          columns: [
            { key: 'Lvl', header: 'Level' },
            { key: 'over45', header: 'Pending over 45 days', numeric: true },
            { key: 'all', header: 'All pending', numeric: true },
          ],
          rows,
        },
      ],
    });
  };

  const openPartners = (inHouseTable: boolean) => {
    const view = inHouseTable ? shownInHouseView : shownPartnerView;
    const rows = (inHouseTable ? inHouse : partners).data;
    if (!rows) return;
    const title = `${inHouseTable ? 'In-house partners' : 'Partners'}: ${partnerViewTitle(view, monthName)}`;
    setDetail({ title, datasets: [partnerDataset(view, title, rows)] });
  };

  const inHouseTotals = shownInHouseView === 'today' ? d.inHouseTotals.today : d.inHouseTotals.month;

  return (
    <>
      <PageHeader
        title="Sales"
        description={
          <>
            {greeting(new Date().getHours())}, {user.email}.{' '}
            {user.iso ? `Figures for ${user.iso.name} only. ` : ''}
            {d.live
              ? `Live figures for ${monthName}, refreshed every ${LIVE_REFRESH_MS / 1000} seconds.`
              : `Summary of ${monthName}.`}
          </>
        }
        actions={
          <Group gap="sm" wrap="nowrap" align="center">
            {d.live ? (
              <Badge color="teal" variant="dot" size="lg" data-testid="live-badge" style={{ flex: 'none' }}>
                Live
              </Badge>
            ) : (
              <Badge
                color="gray"
                variant="light"
                size="lg"
                data-testid="summary-badge"
                style={{ flex: 'none' }}
              >
                Month summary
              </Badge>
            )}
            <MonthSelect
              value={d.month}
              onChange={(month) => setCntr(cntrOfMonth(month, current))}
              min={SALES_FIRST_MONTH}
              max={current}
            />
          </Group>
        }
      />

      <Grid gap="md" align="stretch">
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <GoalCard
            progress={d.goal.progress}
            approved={d.goal.approved}
            monthName={monthName}
            live={d.live}
            loading={d.goal.loading}
            failed={d.goal.failed}
            onDownload={openGoal}
          />
        </Grid.Col>
        {d.live && (
          <>
            <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
              <DayCard
                title="Today"
                testId="card-today"
                submitted={d.todayByProfile.submitted}
                approved={d.todayByProfile.approved}
                loading={d.todayByProfile.loading}
                failed={d.todayByProfile.failed}
                onDownload={() => openDay('today')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
              <DayCard
                title="Yesterday"
                testId="card-yesterday"
                submitted={d.yesterdayByProfile.submitted}
                approved={d.yesterdayByProfile.approved}
                loading={d.yesterdayByProfile.loading}
                failed={d.yesterdayByProfile.failed}
                onDownload={() => openDay('yesterday')}
              />
            </Grid.Col>
          </>
        )}
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <MonthTotalsCard
            totals={d.monthTotals.data}
            monthName={monthName}
            loading={d.monthTotals.loading}
            failed={d.monthTotals.failed}
            onDownload={openMonth}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <SharePieCard
            title="Approvals by platform"
            kind="bank"
            testId="card-platform"
            approvals={d.approvals.data}
            loading={d.approvals.loading}
            failed={d.approvals.failed}
            onDownload={() => openShare('bank')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6, lg: 4 }}>
          <SharePieCard
            title="Approvals by profile"
            kind="profile"
            testId="card-profile"
            approvals={d.approvals.data}
            loading={d.approvals.loading}
            failed={d.approvals.failed}
            onDownload={() => openShare('profile')}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <YearCard
            rows={d.year.data}
            withGoals={d.year.withGoals}
            year={year}
            selectedMonth={d.month}
            loading={d.year.loading}
            failed={d.year.failed}
            onDownload={openYear}
          />
        </Grid.Col>
        {d.live && (
          <Grid.Col span={{ base: 12, lg: 4 }}>
            <PendingCard
              rows={d.pending.data}
              loading={d.pending.loading}
              failed={d.pending.failed}
              onDownload={openPending}
            />
          </Grid.Col>
        )}
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <PartnerCard
            title="Partners"
            testId="card-partners"
            view={shownPartnerView}
            views={d.live ? PARTNER_VIEWS_LIVE : PARTNER_VIEWS_PAST}
            month={d.month}
            rows={partners.data}
            loading={partners.loading}
            failed={partners.failed}
            onNext={() => setPartnerView(nextPartnerView(shownPartnerView, d.live))}
            nextLabel={`Show ${partnerViewTitle(nextPartnerView(shownPartnerView, d.live), monthName).replace(/^\w/, (c) => c.toLowerCase())}`}
            onRow={(iso) => setPick({ iso, list: shownPartnerView, inHouse: false })}
            onDownload={() => openPartners(false)}
          />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <PartnerCard
            title="In-house partners"
            testId="card-inhouse"
            view={shownInHouseView}
            views={d.live ? ['approved', 'today'] : ['approved']}
            month={d.month}
            rows={inHouse.data}
            loading={inHouse.loading}
            failed={inHouse.failed}
            onNext={d.live ? () => setInHouseView(nextInHouseView(shownInHouseView, d.live)) : null}
            nextLabel={
              shownInHouseView === 'today'
                ? `Show approvals in ${monthName}`
                : 'Show submitted and approved today'
            }
            onRow={(iso) => setPick({ iso, list: shownInHouseView, inHouse: true })}
            onDownload={() => openPartners(true)}
            totals={
              inHouseTotals.submitted === undefined
                ? undefined
                : `${inHouseTotals.submitted.toLocaleString('en-US')} submitted, ${(inHouseTotals.approved ?? 0).toLocaleString('en-US')} approved`
            }
          />
        </Grid.Col>
      </Grid>
      <Text fz="xs" c="dimmed" mt="md">
        Counts follow each application’s submitted and approved dates and each merchant’s closing date (UTC).
      </Text>

      <SalesDetailModal spec={detail} onClose={() => setDetail(null)} />
      <PartnerMerchantsModal pick={pick} cntr={cntr} month={d.month} onClose={() => setPick(null)} />
    </>
  );
}
