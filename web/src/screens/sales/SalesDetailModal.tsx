import { type ApprovalDetailRow, monthLabel } from '@paydesk/domain';
import { type Dataset, DetailModal } from '../../components/DetailModal';
import { approvalColumns, merchantColumns } from './details';
import type { PartnerView } from './salesModel';
import { partnerViewTitle } from './salesModel';
import { useApprovalsBetween, usePartnerMerchants } from './useSalesDashboard';

export interface DetailSpec {
  title: string;
  subject?: string;
  datasets: Dataset[];
  /** Adds the approvals of these days (fetched when the modal opens) as a further list. */
  approvals?: { from: string; to: string; title: string };
}

const NO_APPROVALS = { from: '', to: '', title: '' };

/** A card's detail modal; the approvals list, when asked for, is loaded on opening. */
export function SalesDetailModal({ spec, onClose }: { spec: DetailSpec | null; onClose: () => void }) {
  const range = spec?.approvals ?? NO_APPROVALS;
  const approvals = useApprovalsBetween(range.from, range.to, spec?.approvals !== undefined);
  let datasets: Dataset[] | undefined = spec?.datasets;
  if (spec?.approvals) {
    datasets = approvals.data
      ? [
          ...spec.datasets,
          {
            title: spec.approvals.title,
            columns: approvalColumns,
            rows: approvals.data as ApprovalDetailRow[] as unknown as Record<string, unknown>[],
          },
        ]
      : undefined;
  }
  return (
    <DetailModal
      opened={spec !== null}
      onClose={onClose}
      title={spec?.title ?? ''}
      subject={spec?.subject}
      datasets={datasets}
      loading={approvals.loading}
      error={approvals.failed ? 'The approvals could not be loaded. Close and try again.' : null}
    />
  );
}

export interface PartnerPick {
  iso: string;
  list: PartnerView;
  inHouse: boolean;
}

/** The merchants behind a partner row: id, MID, DBA, sponsor bank and profile. */
export function PartnerMerchantsModal({
  pick,
  cntr,
  month,
  onClose,
}: {
  pick: PartnerPick | null;
  cntr: number;
  month: string;
  onClose: () => void;
}) {
  const merchants = usePartnerMerchants(pick, cntr);
  const what = pick ? partnerViewTitle(pick.list, monthLabel(month)) : '';
  const title = pick ? `${pick.iso}: merchants` : '';
  return (
    <DetailModal
      opened={pick !== null}
      onClose={onClose}
      title={title}
      subject={pick?.list === 'today' ? 'Merchants approved today.' : `${what}.`}
      datasets={
        merchants.data
          ? [
              {
                title: `Merchants of ${pick?.iso ?? ''}`,
                columns: merchantColumns,
                rows: merchants.data as unknown as Record<string, unknown>[],
              },
            ]
          : undefined
      }
      loading={merchants.loading}
      error={merchants.failed ? 'The merchants could not be loaded. Close and try again.' : null}
    />
  );
}
