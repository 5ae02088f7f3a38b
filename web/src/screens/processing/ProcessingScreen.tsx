import { Button, Grid, Group, Text } from '@mantine/core';
import { hasPermission, monthLabel } from '@paydesk/domain';
import { IconCoin } from '@tabler/icons-react';
import { useState } from 'react';
import { useSessionUser } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { BudgetModal } from './BudgetModal';
import { HeadlineCard } from './HeadlineCard';
import { ActivationCard, AverageCard, BankCard, DailyCard, ProfileCard } from './ProcessingCharts';
import { dayLabel } from './processingModel';
import { LIVE_REFRESH_MS, useProcessing } from './useProcessing';
import { YearNav } from './YearNav';

/** Spec document 2 §2.8: processed volume against the budget, by year, 2020 to now. */
export default function ProcessingScreen() {
  const user = useSessionUser();
  const p = useProcessing();
  const [editing, setEditing] = useState(false);
  const canEditBudgets = hasPermission(user, 'edit_budgets');
  const info = p.info.data;
  const periods = info?.bankPeriods ?? [];
  return (
    <>
      <PageHeader
        title="Processing"
        description={
          <>
            {user.iso ? `Volume of ${user.iso.name}’s merchants. ` : ''}
            {p.live
              ? `${p.year}, live: refreshed every ${LIVE_REFRESH_MS / 60_000} minutes.`
              : `${p.year}, the whole year (historic).`}
          </>
        }
        actions={
          <Group gap="sm" wrap="nowrap">
            {canEditBudgets && (
              <Button variant="light" leftSection={<IconCoin size={16} />} onClick={() => setEditing(true)}>
                Edit budgets
              </Button>
            )}
            <YearNav year={p.year} first={p.first} current={p.current} live={p.live} onChange={p.setYear} />
          </Group>
        }
      />
      <Grid gap="md" align="stretch">
        <Grid.Col span={12}>
          <HeadlineCard headline={info?.headline} budgets={!user.iso} live={p.live} {...p.info} />
        </Grid.Col>
        <Grid.Col span={12}>
          <DailyCard info={info} {...p.info} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <BankCard info={info} year={p.year} {...p.info} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <AverageCard info={info} year={p.year} {...p.info} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <ProfileCard info={info} year={p.year} {...p.info} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 6 }}>
          <ActivationCard rows={p.activation.data} month={p.month} year={p.year} {...p.activation} />
        </Grid.Col>
      </Grid>
      {periods.length > 0 && (
        <Text fz="xs" c="dimmed" mt="sm" data-testid="bank-periods">
          Figures per bank in {monthLabel(p.month)}:{' '}
          {periods.map((b) => `${b.bank} ${dayLabel(b.start)}–${dayLabel(b.end)}`).join(' · ')}.
        </Text>
      )}
      {canEditBudgets && <BudgetModal opened={editing} year={p.year} onClose={() => setEditing(false)} />}
    </>
  );
}
