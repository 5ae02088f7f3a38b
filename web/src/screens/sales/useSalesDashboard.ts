import {
  type AnswerOf,
  type ApprovalDetailRow,
  type ApprovedByProfile,
  type Endpoint,
  goalProgress,
  type InputOf,
  LIVE_REFRESH_MS,
  lastDayOfMonth,
  type PartnerMerchantRow,
  type PartnerRow,
  type SubmittedByProfile,
  salesEndpoints,
} from '@paydesk/domain';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { call } from '../../app/api';
import { salesKeys } from '../../app/queryKeys';
import {
  clampCntr,
  currentMonth,
  hasGoals,
  lastDayShown,
  monthOfCntr,
  type PartnerView,
  profileSplit,
  todayIso,
  yearMonths,
} from './salesModel';

/** A dashboard call's state as a card shows it: failures are logged and shown discreetly, never thrown. */
export interface Loaded<T> {
  data: T | undefined;
  loading: boolean;
  failed: boolean;
}

interface CallOptions {
  /** Ask again every minute (the figures of the current month). */
  live: boolean;
  enabled?: boolean;
}

/** One dashboard call; `input` is null while the call is disabled (nothing chosen yet). */
export function useSalesCall<E extends Endpoint>(
  endpoint: E,
  input: InputOf<E> | null,
  options: CallOptions,
): Loaded<AnswerOf<E>> {
  const { path } = endpoint;
  const query = useQuery({
    queryKey: salesKeys.call(path, input),
    // The variadic call() cannot check an input whose endpoint is a type parameter; useSalesCall's own
    // signature ties the input to the endpoint.
    queryFn: () => (call as (e: Endpoint, i: unknown) => Promise<AnswerOf<E>>)(endpoint, input ?? undefined),
    refetchInterval: options.live ? LIVE_REFRESH_MS : false,
    enabled: options.enabled ?? true,
  });
  useEffect(() => {
    // Spec document 1 §8: a failed dashboard call is only logged; the card says its figures are missing.
    if (query.error) console.error(`${path} failed:`, query.error);
  }, [path, query.error]);
  return {
    data: query.data,
    loading: query.isPending && query.fetchStatus !== 'idle',
    failed: query.isError,
  };
}

/** The month offset kept in the URL as `cntr` (0, the current month, is left out). */
export function useCntrParam(): { cntr: number; current: string; setCntr: (cntr: number) => void } {
  const [params, setParams] = useSearchParams();
  const current = currentMonth();
  const cntr = clampCntr(params.get('cntr'), current);
  const setCntr = useCallback(
    (next: number) =>
      setParams((previous) => {
        const out = new URLSearchParams(previous);
        if (next === 0) out.delete('cntr');
        else out.set('cntr', String(next));
        return out;
      }),
    [setParams],
  );
  return { cntr, current, setCntr };
}

/** Every figure of the sales dashboard for the month `cntr` months back; today's figures only when cntr is 0. */
export function useSalesDashboard(cntr: number, current: string) {
  const live = cntr === 0;
  const month = monthOfCntr(cntr, current);
  const today = todayIso();
  const byCntr = { cntr };
  const byMonth = { dt: month };
  const liveOnly = { live, enabled: live };
  const summary = { live };

  const approvedMTD = useSalesCall(salesEndpoints.approvedMTD, byCntr, summary);
  const submittedMTD = useSalesCall(salesEndpoints.submittedMTD, byCntr, summary);
  const closedMTD = useSalesCall(salesEndpoints.closedMTD, byCntr, summary);
  const approvedMTDInHouse = useSalesCall(salesEndpoints.approvedMTDInHouse, byCntr, summary);
  const submittedMTDInHouse = useSalesCall(salesEndpoints.submittedMTDInHouse, byCntr, summary);
  const year = useSalesCall(salesEndpoints.year, byMonth, summary);
  const goals = useSalesCall(salesEndpoints.salesYTDgoals, byMonth, { live: false });
  const holidays = useSalesCall(salesEndpoints.holiday, byMonth, { live: false });

  const approvedToday = useSalesCall(salesEndpoints.approvedTodayByProfile, null, liveOnly);
  const submittedToday = useSalesCall(salesEndpoints.submittedTodayByProfile, null, liveOnly);
  const approvedYest = useSalesCall(salesEndpoints.approvedYestByProfile, null, liveOnly);
  const submittedYest = useSalesCall(salesEndpoints.submittedYestByProfile, null, liveOnly);
  const approvedTodayInHouse = useSalesCall(salesEndpoints.approvedTodayInHouse, null, liveOnly);
  const submittedTodayInHouse = useSalesCall(salesEndpoints.submittedTodayInHouse, null, liveOnly);
  const pending45 = useSalesCall(salesEndpoints.pending45days, null, liveOnly);
  const pendingAll = useSalesCall(salesEndpoints.pend, null, liveOnly);

  const partnersApproved = useSalesCall(salesEndpoints.approvedMTDPartner, byCntr, summary);
  const partnersClosed = useSalesCall(salesEndpoints.closedMTDPartner, byCntr, summary);
  const partnersToday = useSalesCall(salesEndpoints.submittedApprovedTodayPartner, null, liveOnly);
  const inHouseApproved = useSalesCall(salesEndpoints.approvedMTDInHousePartner, byCntr, summary);
  const inHouseToday = useSalesCall(salesEndpoints.submittedApprovedTodayInHousePartner, null, liveOnly);

  const approvedMonth = approvedMTD.data?.[0];
  const goalRow = goals.data?.find((g) => `${g.Month}-01` === month);
  const holidaySet = holidays.data ? new Set(holidays.data.map((h) => h.holiday)) : undefined;
  const withGoals = goals.data ? hasGoals(goals.data) : undefined;
  const progress =
    approvedMonth && goals.data && holidaySet && withGoals
      ? goalProgress(month, today, Number(goalRow?.goal ?? 0), approvedMonth.Approved, holidaySet)
      : undefined;

  const split = (a?: ApprovedByProfile, s?: SubmittedByProfile) => ({
    approved: a ? profileSplit(a.Approved, a.PLApproved, a.TRApproved, a.HRApproved) : undefined,
    submitted: s ? profileSplit(s.Submitted, s.PLSubmitted, s.TRSubmitted, s.HRSubmitted) : undefined,
  });

  return {
    live,
    month,
    today,
    yesterday: todayIso(new Date(Date.parse(`${today}T00:00:00Z`) - 86_400_000)),
    monthEnd: lastDayOfMonth(month),
    lastDay: lastDayShown(month, today),
    goal: {
      /** Null when there are no goals to compare with (an ISO-bound user). */
      progress: withGoals === false ? null : progress,
      approved: approvedMonth?.Approved,
      loading: approvedMTD.loading || goals.loading || holidays.loading,
      failed: approvedMTD.failed || goals.failed || holidays.failed,
    },
    todayByProfile: {
      ...split(approvedToday.data?.[0], submittedToday.data?.[0]),
      loading: approvedToday.loading || submittedToday.loading,
      failed: approvedToday.failed || submittedToday.failed,
    },
    yesterdayByProfile: {
      ...split(approvedYest.data?.[0], submittedYest.data?.[0]),
      loading: approvedYest.loading || submittedYest.loading,
      failed: approvedYest.failed || submittedYest.failed,
    },
    monthTotals: {
      data:
        submittedMTD.data && approvedMonth && closedMTD.data
          ? {
              Submitted: submittedMTD.data[0]?.Submitted ?? 0,
              Approved: approvedMonth.Approved,
              Closed: closedMTD.data[0]?.Closed ?? 0,
            }
          : undefined,
      loading: submittedMTD.loading || approvedMTD.loading || closedMTD.loading,
      failed: submittedMTD.failed || approvedMTD.failed || closedMTD.failed,
    },
    approvals: {
      data: approvedMTD.data,
      loading: approvedMTD.loading,
      failed: approvedMTD.failed,
    },
    year: {
      data:
        year.data && goals.data && holidaySet
          ? yearMonths(year.data, goals.data, today, holidaySet)
          : undefined,
      withGoals: withGoals ?? true,
      loading: year.loading || goals.loading || holidays.loading,
      failed: year.failed || goals.failed || holidays.failed,
    },
    pending: {
      data: pending45.data?.map((row) => ({
        Lvl: row.Lvl,
        over45: row.lvlCount,
        all: pendingAll.data?.find((p) => p.Lvl === row.Lvl)?.lvlCount,
      })),
      loading: pending45.loading,
      failed: pending45.failed,
    },
    partners: {
      approved: partnersApproved,
      closed: partnersClosed,
      today: partnersToday,
    } satisfies Record<PartnerView, Loaded<PartnerRow[]>>,
    inHouse: {
      approved: inHouseApproved,
      closed: inHouseApproved,
      today: inHouseToday,
    } satisfies Record<PartnerView, Loaded<PartnerRow[]>>,
    inHouseTotals: {
      month: {
        submitted: submittedMTDInHouse.data?.[0]?.Submitted,
        approved: approvedMTDInHouse.data?.[0]?.Approved,
      },
      today: {
        submitted: submittedTodayInHouse.data?.[0]?.Submitted,
        approved: approvedTodayInHouse.data?.[0]?.Approved,
      },
    },
  };
}

export type SalesDashboard = ReturnType<typeof useSalesDashboard>;

/**
 * The approvals of [from, to] (both 'YYYY-MM-DD', same year), fetched when a detail modal opens: only those days'
 * (a month is a twelfth of the year's list, which the older client fetched whole).
 */
export function useApprovalsBetween(from: string, to: string, enabled: boolean): Loaded<ApprovalDetailRow[]> {
  return useSalesCall(salesEndpoints.approvedYTDDetails, { dt: to, from }, { live: false, enabled });
}

/** The merchants behind a partner row. */
export function usePartnerMerchants(
  row: { iso: string; list: PartnerView; inHouse: boolean } | null,
  cntr: number,
): Loaded<PartnerMerchantRow[]> {
  return useSalesCall(
    salesEndpoints.partnerMerchants,
    row
      ? { iso: row.iso, list: row.list, cntr: row.list === 'today' ? 0 : cntr, inHouse: row.inHouse }
      : null,
    { live: false, enabled: row !== null },
  );
}
