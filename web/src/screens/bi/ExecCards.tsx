import { ActionIcon, Group, Popover, SimpleGrid, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconInfoCircle, IconListDetails } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { DashCard } from '../../components/DashCard';

export interface ExecFigures {
  volume: number;
  transactions: number;
  avgTicket: number;
  chargebackVolume: number;
  chargebackCount: number;
  gross: number;
  net: number;
  expenses: number;
  payouts: number;
}

interface ExecCardsProps {
  figures: ExecFigures | undefined;
  /** ISO tab: totals of the period; Merchant tab: the same figures per merchant. */
  perMerchant: boolean;
  /** How a figure reads on a card ('$1.2M'). */
  money: (value: number) => string;
  count: (value: number) => string;
  loading: boolean;
  failed: boolean;
  /** The Merchant tab's tooltip per card, saying how the average is taken. */
  help: Record<'volume' | 'transactions' | 'avgTicket' | 'chargebacks' | 'income', string>;
}

function Big({ children, testId, color }: { children: ReactNode; testId: string; color?: string }) {
  return (
    <Text
      fz={24}
      fw={750}
      lh={1.15}
      c={color}
      data-testid={testId}
      style={{ fontVariantNumeric: 'tabular-nums' }}
    >
      {children}
    </Text>
  );
}

function Help({ text }: { text: string }) {
  return (
    <Tooltip label={text} multiline w={260} withArrow>
      <ActionIcon variant="subtle" color="gray" size="sm" aria-label={text}>
        <IconInfoCircle size={16} />
      </ActionIcon>
    </Tooltip>
  );
}

/** Volume, Transactions, Avg Ticket, Chargebacks and income (spec 3 §2.1), with the income's Details popover. */
export function ExecCards({ figures: f, perMerchant, money, count, loading, failed, help }: ExecCardsProps) {
  const helpOf = (key: keyof ExecCardsProps['help']) => (perMerchant ? <Help text={help[key]} /> : undefined);
  return (
    <SimpleGrid cols={{ base: 2, md: 3, xl: 5 }} spacing="md" mb="md">
      <DashCard
        title="Volume"
        subtitle={perMerchant ? 'Per merchant' : 'Sales'}
        loading={loading}
        failed={failed}
        skeleton={60}
        actions={helpOf('volume')}
        testId="card-volume"
      >
        {f && <Big testId="exec-volume">{money(f.volume)}</Big>}
      </DashCard>
      <DashCard
        title="Transactions"
        subtitle={perMerchant ? 'Per merchant' : 'Sales count'}
        loading={loading}
        failed={failed}
        skeleton={60}
        actions={helpOf('transactions')}
        testId="card-transactions"
      >
        {f && <Big testId="exec-transactions">{count(f.transactions)}</Big>}
      </DashCard>
      <DashCard
        title="Avg Ticket"
        subtitle="Volume ÷ sales"
        loading={loading}
        failed={failed}
        skeleton={60}
        actions={helpOf('avgTicket')}
        testId="card-avg-ticket"
      >
        {f && <Big testId="exec-avg-ticket">{money(f.avgTicket)}</Big>}
      </DashCard>
      <DashCard
        title="Chargebacks"
        subtitle={perMerchant ? 'Per merchant' : 'Amount and count'}
        loading={loading}
        failed={failed}
        skeleton={60}
        actions={helpOf('chargebacks')}
        testId="card-chargebacks"
      >
        {f && (
          <Stack gap={0}>
            <Big testId="exec-chargebacks" color="red.8">
              {money(f.chargebackVolume)}
            </Big>
            <Text fz="sm" c="dimmed" data-testid="exec-chargeback-count">
              {count(f.chargebackCount)} chargebacks
            </Text>
          </Stack>
        )}
      </DashCard>
      <DashCard
        title="Income"
        subtitle={perMerchant ? 'Per merchant' : 'Gross and net'}
        loading={loading}
        failed={failed}
        skeleton={60}
        testId="card-income"
        actions={
          <>
            {helpOf('income')}
            {f && (
              <Popover width={260} position="bottom-end" withArrow shadow="md">
                <Popover.Target>
                  <ActionIcon variant="subtle" color="gray" size="sm" aria-label="Income details">
                    <IconListDetails size={16} />
                  </ActionIcon>
                </Popover.Target>
                <Popover.Dropdown>
                  <Text fz="sm" fw={650} mb={4}>
                    Details
                  </Text>
                  <Table fz="sm" withRowBorders={false} verticalSpacing={2} aria-label="Income details">
                    <Table.Tbody>
                      <Table.Tr>
                        <Table.Td>Gross income</Table.Td>
                        <Table.Td ta="right">{money(f.gross)}</Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Td>Expenses</Table.Td>
                        <Table.Td ta="right" data-testid="exec-expenses">
                          −{money(f.expenses)}
                        </Table.Td>
                      </Table.Tr>
                      <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
                        <Table.Td fw={650}>Net income</Table.Td>
                        <Table.Td ta="right" fw={650}>
                          {money(f.net)}
                        </Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Td>Payouts to the ISO</Table.Td>
                        <Table.Td ta="right" data-testid="exec-payouts">
                          {money(f.payouts)}
                        </Table.Td>
                      </Table.Tr>
                      <Table.Tr>
                        <Table.Td c="dimmed">Kept by the house</Table.Td>
                        <Table.Td ta="right" c="dimmed">
                          {money(f.net - f.payouts)}
                        </Table.Td>
                      </Table.Tr>
                    </Table.Tbody>
                  </Table>
                </Popover.Dropdown>
              </Popover>
            )}
          </>
        }
      >
        {f && (
          <Stack gap={0}>
            <Group gap={6} align="baseline" wrap="nowrap">
              <Text fz="xs" c="dimmed" w={34}>
                Gross
              </Text>
              <Text
                fz={20}
                fw={750}
                lh={1.15}
                data-testid="exec-gross"
                style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
              >
                {money(f.gross)}
              </Text>
            </Group>
            <Group gap={6} align="baseline" wrap="nowrap">
              <Text fz="xs" c="dimmed" w={34}>
                Net
              </Text>
              <Text fz="lg" fw={700} c="teal.8" data-testid="exec-net">
                {money(f.net)}
              </Text>
            </Group>
          </Stack>
        )}
      </DashCard>
    </SimpleGrid>
  );
}
