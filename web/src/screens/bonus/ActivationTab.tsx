import { Badge, Text } from '@mantine/core';
import { type BonusActivationRow as ActivationRow, bonusEndpoints } from '@paydesk/domain';
import { useQuery } from '@tanstack/react-query';
import { call, errorMessage } from '../../app/api';
import { bonusKeys } from '../../app/queryKeys';
import type { Column } from '../../components/DataTable';
import { formatCount } from '../../components/format';
import { dateCell, MERCHANT_SEARCH, merchantColumns, moneyCell, rowName } from './BonusesTab';
import { ListTable } from './ListTable';

const STATUS_COLORS: Record<ActivationRow['activation_status'], string> = {
  Activated: 'teal',
  Pending: 'blue',
  Expired: 'gray',
};

const COLUMNS: Column<ActivationRow>[] = [
  ...merchantColumns<ActivationRow>(),
  {
    key: 'volume_threshold',
    header: 'Volume Threshold',
    render: (r) => moneyCell(r.volume_threshold),
    align: 'right',
    nowrap: true,
  },
  {
    key: 'volume',
    header: 'Processed Volume',
    render: (r) => moneyCell(r.volume),
    align: 'right',
    nowrap: true,
  },
  {
    key: 'days',
    header: 'Remaining Days',
    // The server already stops at 0; the table never shows a negative count either way.
    render: (r) => formatCount(Math.max(0, r.days)),
    align: 'right',
    nowrap: true,
  },
  {
    key: 'activation_status',
    header: 'Status',
    render: (r) => (
      <Badge color={STATUS_COLORS[r.activation_status]} variant="light" radius="sm" miw="max-content">
        {r.activation_status}
      </Badge>
    ),
  },
  {
    key: 'activated_on',
    header: 'Activated On',
    render: (r) => dateCell(r.activated_on),
    nowrap: true,
  },
];

/**
 * Activation (spec document 3 §2.3): merchants paid on activation and where each stands against its volume
 * threshold within its volume days.
 */
export function ActivationTab() {
  const rows = useQuery({
    queryKey: bonusKeys.activation(),
    queryFn: () => call(bonusEndpoints.getActivation),
  });
  return (
    <>
      <Text fz="sm" c="dimmed" mb="xs">
        Merchants whose bonus is paid on activation: the volume they processed within their volume days
        against the threshold.
      </Text>
      <ListTable<ActivationRow>
        label="Activation"
        noun="merchants"
        columns={COLUMNS}
        rows={rows.data}
        loading={rows.isFetching}
        error={rows.error ? errorMessage(rows.error, 'The activation list could not be loaded.') : null}
        empty={{
          title: 'No merchants awaiting activation',
          description: 'No bonus is paid on activation yet.',
        }}
        rowKey={(r) => r.mid}
        rowLabel={rowName}
        search={MERCHANT_SEARCH}
      />
    </>
  );
}
