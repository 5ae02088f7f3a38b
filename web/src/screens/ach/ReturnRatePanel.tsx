import {
  ActionIcon,
  Badge,
  Collapse,
  Group,
  Paper,
  ScrollArea,
  SegmentedControl,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import {
  achEndpoints,
  RETURN_RATE_KINDS,
  RETURN_RATE_WINDOW_DAYS,
  type ReturnRateKind,
  type ReturnRateLevel,
  type ReturnRateRow,
  type ReturnRatesAnswer,
} from '@paydesk/domain';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { achKeys } from '../../app/queryKeys';
import { formatCount } from '../../components/format';
import classes from './AchScreen.module.css';
import { formatRate, rateOf, thresholdLabel } from './returnRateView';

const KIND_LABEL: Record<ReturnRateKind, string> = {
  unauthorized: 'Unauthorized',
  administrative: 'Administrative',
  overall: 'Overall',
};

const KIND_CODES: Record<ReturnRateKind, string> = {
  unauthorized: 'R05, R07, R10, R11, R29, R51',
  administrative: 'R02, R03, R04',
  overall: 'every R code',
};

interface ReturnRatePanelProps {
  /** A click on a row: show its returns of the window in the table. */
  onShow: (level: ReturnRateLevel, row: ReturnRateRow, window: { from: string; to: string }) => void;
}

/**
 * Return-rate monitoring (issue 12, beyond the spec): per merchant or per ISO over the last 60 days, the
 * unauthorized, administrative and overall return rates against NACHA's 0.5 %, 3 % and 15 %, those over a
 * threshold first. A row opens its returns in the table below.
 */
export function ReturnRatePanel({ onShow }: ReturnRatePanelProps) {
  const [level, setLevel] = useState<ReturnRateLevel>('merchant');
  const [open, setOpen] = useState(true);
  const rates = useQuery({
    queryKey: achKeys.returnRates(level),
    queryFn: () => call(achEndpoints.returnRates, { level }),
    placeholderData: keepPreviousData,
  });
  const data = rates.data?.level === level ? rates.data : undefined;
  const noun = level === 'merchant' ? 'merchants' : 'ISOs';

  return (
    <Paper withBorder radius="md" px="md" py="sm" mb="sm" role="region" aria-label="Return rates">
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Group gap="sm" wrap="nowrap">
          <ActionIcon
            variant="subtle"
            color="gray"
            onClick={() => setOpen((o) => !o)}
            aria-label={open ? 'Hide the return rates' : 'Show the return rates'}
            aria-expanded={open}
          >
            {open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
          </ActionIcon>
          <div>
            <Text fw={700} fz="sm">
              Return rates, last {RETURN_RATE_WINDOW_DAYS} days
              {data && (
                <Text span c="dimmed" fz="sm" fw={400}>
                  {' '}
                  ({data.from} – {data.to}, by entry date)
                </Text>
              )}
            </Text>
            <Text fz="xs" c="dimmed">
              Returned debits ÷ ACH debits originated, against the NACHA thresholds. Click a row to see its
              returns.
            </Text>
          </div>
        </Group>
        <Group gap="sm" wrap="nowrap">
          {data && <OverSummary data={data} noun={noun} />}
          <SegmentedControl
            size="xs"
            value={level}
            onChange={(value) => setLevel(value as ReturnRateLevel)}
            data={[
              { value: 'merchant', label: 'Per merchant' },
              { value: 'iso', label: 'Per ISO' },
            ]}
            aria-label="Return rates per"
          />
        </Group>
      </Group>
      <Collapse expanded={open}>
        <ScrollArea.Autosize mah={204} mt="sm" type="auto">
          {rates.error && (
            <Text fz="sm" c="red" role="alert">
              {errorMessage(rates.error, 'The return rates could not be loaded.')}
            </Text>
          )}
          {!data && !rates.error && (
            <Text fz="sm" c="dimmed">
              Counting returns…
            </Text>
          )}
          {data && data.rows.length === 0 && (
            <Text fz="sm" c="dimmed">
              No ACH debits or returns in these {RETURN_RATE_WINDOW_DAYS} days.
            </Text>
          )}
          {data && data.rows.length > 0 && (
            <RatesTable data={data} onShow={(row) => onShow(level, row, { from: data.from, to: data.to })} />
          )}
        </ScrollArea.Autosize>
        {data && data.rows.length > 0 && (
          <Text fz="xs" c="dimmed" mt={4}>
            {data.rows.length < data.total
              ? `Listing ${formatCount(data.rows.length)} of ${formatCount(data.total)} ${noun}`
              : `All ${formatCount(data.total)} ${noun}`}
            : those over a threshold first, the most severe at the top.
          </Text>
        )}
      </Collapse>
    </Paper>
  );
}

function OverSummary({ data, noun }: { data: ReturnRatesAnswer; noun: string }) {
  return data.overCount > 0 ? (
    <Badge color="red" variant="light" size="lg" radius="sm" className={classes.badge}>
      {formatCount(data.overCount)} of {formatCount(data.total)} {noun} over a threshold
    </Badge>
  ) : (
    <Badge color="teal" variant="light" size="lg" radius="sm" className={classes.badge}>
      None of {formatCount(data.total)} {noun} over a threshold
    </Badge>
  );
}

function RatesTable({ data, onShow }: { data: ReturnRatesAnswer; onShow: (row: ReturnRateRow) => void }) {
  const merchant = data.level === 'merchant';
  return (
    <Table
      aria-label={merchant ? 'Return rates per merchant' : 'Return rates per ISO'}
      fz="xs"
      verticalSpacing={4}
      stickyHeader
      highlightOnHover
    >
      <Table.Thead>
        <Table.Tr>
          {merchant && <Table.Th>MID</Table.Th>}
          {merchant && <Table.Th>DBA</Table.Th>}
          <Table.Th>ISO</Table.Th>
          <Table.Th ta="right">Debits</Table.Th>
          <Table.Th ta="right">Returns</Table.Th>
          {RETURN_RATE_KINDS.map((kind) => (
            <Table.Th key={kind} ta="right">
              <Tooltip
                label={`Codes ${KIND_CODES[kind]}; over ${thresholdLabel(kind)} is over the threshold`}
              >
                <span>
                  {KIND_LABEL[kind]} ({thresholdLabel(kind)})
                </span>
              </Tooltip>
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {data.rows.map((row) => (
          <Table.Tr
            key={row.key}
            className={classes.rateRow}
            onClick={() => onShow(row)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                onShow(row);
              }
            }}
            tabIndex={0}
            role="button"
            aria-label={`Show the returns of ${merchant ? `MID ${row.mid ?? row.key}` : row.iso}`}
          >
            {merchant && <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.mid ?? row.key}</Table.Td>}
            {merchant && <Table.Td>{row.dba ?? '—'}</Table.Td>}
            <Table.Td>{row.iso}</Table.Td>
            <Table.Td ta="right">{formatCount(row.entries)}</Table.Td>
            <Table.Td ta="right">{formatCount(row.returns)}</Table.Td>
            {RETURN_RATE_KINDS.map((kind) => (
              <RateCell key={kind} row={row} kind={kind} />
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function RateCell({ row, kind }: { row: ReturnRateRow; kind: ReturnRateKind }) {
  const over = row.over.includes(kind);
  const text = formatRate(rateOf(row, kind));
  return (
    <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
      {over ? (
        <Badge
          color="red"
          variant="filled"
          size="sm"
          radius="sm"
          className={classes.badge}
          title={`Over ${thresholdLabel(kind)}`}
        >
          {text}
        </Badge>
      ) : (
        text
      )}
    </Table.Td>
  );
}
