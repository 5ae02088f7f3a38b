import { Badge, Modal, Stack, Text } from '@mantine/core';
import { type Column, DataTable } from '../../components/DataTable';
import { formatCell } from '../../components/format';

/** Spec document 3 §3, a bonus match: an earlier bonused merchant at the same address. */
export interface BonusMatch {
  mid: string;
  dba_name: string | null;
  iso_name: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipcode: string | null;
  bonus_date: string | null;
  clawed_back: number | boolean | null;
}

const text = (value: string | null) => value ?? '—';

const COLUMNS: Column<BonusMatch>[] = [
  { key: 'mid', header: 'MID', render: (m) => m.mid, nowrap: true },
  { key: 'dba_name', header: 'DBA', render: (m) => text(m.dba_name) },
  { key: 'iso_name', header: 'ISO', render: (m) => text(m.iso_name) },
  { key: 'address', header: 'Address', render: (m) => text(m.address) },
  { key: 'city', header: 'City', render: (m) => text(m.city) },
  { key: 'state', header: 'State', render: (m) => text(m.state), nowrap: true },
  { key: 'zipcode', header: 'Zip', render: (m) => text(m.zipcode), nowrap: true },
  { key: 'bonus_date', header: 'Bonus Date', render: (m) => formatCell('date', m.bonus_date), nowrap: true },
  {
    key: 'clawed_back',
    header: 'Clawed Back',
    render: (m) =>
      Number(m.clawed_back) === 1 ? (
        <Badge color="red" variant="light" radius="sm">
          Yes
        </Badge>
      ) : (
        'No'
      ),
  },
];

interface MatchesModalProps {
  /** The new merchant the matches are for: "MID 7410 · Blue Cafe"; null while closed. */
  subject: string | null;
  matches: readonly BonusMatch[] | undefined;
  loading: boolean;
  error: string | null;
  onClose: () => void;
}

/**
 * "Matches found" (spec document 3 §2.3): earlier bonused merchants at the new merchant's address, city,
 * state and zip, and whether their bonus was clawed back; a second bonus for the same premises is worth a look
 * before paying.
 */
export function MatchesModal({ subject, matches, loading, error, onClose }: MatchesModalProps) {
  return (
    <Modal opened={subject !== null} onClose={onClose} title="Matches found" size="80rem">
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          Earlier bonused merchants at the same address, city, state and zip as {subject}.
        </Text>
        <DataTable<BonusMatch>
          label="Matches found"
          columns={COLUMNS}
          rows={matches}
          rowKey={(m) => `${m.mid}-${m.bonus_date}`}
          loading={loading}
          error={error}
          compact
          empty={{ title: 'No matches', description: 'No earlier bonused merchant shares this address.' }}
        />
      </Stack>
    </Modal>
  );
}
