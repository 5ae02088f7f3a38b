import { Button, Group, Modal, NumberInput, ScrollArea, Select, Skeleton, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MAX_BUDGET, monthLabel, PROCESSING_FIRST_YEAR, processingEndpoints } from '@paydesk/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { call, errorMessage } from '../../app/api';
import { processingKeys } from '../../app/queryKeys';
import { FormAlert } from '../../components/FormAlert';
import { budgetChanges, cellKey, monthTotal, savedBudgets } from './budgetModel';
import { dollars, orderedBanks, shortMonth, yearMonths } from './processingModel';

interface BudgetModalProps {
  opened: boolean;
  /** The year the dashboard shows; the modal opens on it. */
  year: number;
  onClose: () => void;
}

/**
 * A year's budgets per bank and month, editable in place (finance_admin and admin; the server checks and audits
 * each change). Next year is offered too, so budgets can be set before the year begins.
 */
export function BudgetModal({ opened, year: dashboardYear, onClose }: BudgetModalProps) {
  const queryClient = useQueryClient();
  const [year, setYear] = useState(dashboardYear);
  const [edits, setEdits] = useState<Map<string, number | ''>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (opened) {
      setYear(dashboardYear);
      setEdits(new Map());
      setProblem(null);
    }
  }, [opened, dashboardYear]);

  const budgets = useQuery({
    queryKey: processingKeys.budgets(year),
    queryFn: () => call(processingEndpoints.budgets, { year }),
    enabled: opened,
  });
  const saved = useMemo(() => savedBudgets(budgets.data?.rows ?? []), [budgets.data]);
  const banks = useMemo(() => orderedBanks(budgets.data?.banks ?? []), [budgets.data]);
  const months = yearMonths(year);
  const changes = budgetChanges(edits, saved);
  const years = useMemo(() => {
    const last = new Date().getUTCFullYear() + 1;
    return Array.from({ length: last - PROCESSING_FIRST_YEAR + 1 }, (_, i) => String(last - i));
  }, []);

  const save = useMutation({
    mutationFn: async () => {
      // One call per cell, in order, so a refusal names the cell it concerns and the ones before it stay saved.
      let done = 0;
      for (const change of changes) {
        try {
          await call(processingEndpoints.saveBudget, change);
        } catch (error) {
          throw new Error(
            `${change.bank}, ${monthLabel(change.mth)}: ${errorMessage(error, 'the budget could not be saved')}${done ? ` (${done} saved before it)` : ''}`,
          );
        }
        done += 1;
      }
      return done;
    },
    onSuccess: (count) => {
      notifications.show({ color: 'teal', message: `${count} budget${count === 1 ? '' : 's'} saved.` });
      onClose();
    },
    onError: (error) => setProblem(error.message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: processingKeys.all }),
  });

  const setCell = (bank: string, mth: string, value: number | string) =>
    setEdits((previous) => {
      const next = new Map(previous);
      next.set(cellKey(bank, mth), typeof value === 'number' ? value : value === '' ? '' : Number(value));
      return next;
    });

  return (
    <Modal opened={opened} onClose={onClose} title="Processing budgets" size="auto" centered>
      <Group justify="space-between" align="flex-end" mb="sm" gap="md">
        <Text fz="sm" c="dimmed" maw={520}>
          The volume each sponsor bank is expected to process per month. The dashboard compares the trend with
          the sum of the banks’ budgets. Every change is recorded in the audit log.
        </Text>
        <Select
          label="Year"
          data={years}
          value={String(year)}
          onChange={(value) => value && setYear(Number(value))}
          allowDeselect={false}
          disabled={changes.length > 0}
          description={changes.length > 0 ? 'Save or cancel first' : undefined}
          w={130}
        />
      </Group>
      {budgets.isPending ? (
        <Skeleton height={360} />
      ) : budgets.isError ? (
        <FormAlert kind="error">{errorMessage(budgets.error, 'The budgets could not be loaded.')}</FormAlert>
      ) : (
        <ScrollArea.Autosize mah="60vh">
          <Table striped withTableBorder stickyHeader aria-label={`Budgets ${year}`} verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Month</Table.Th>
                {banks.map((bank) => (
                  <Table.Th key={bank} ta="right">
                    {bank}
                  </Table.Th>
                ))}
                <Table.Th ta="right">All banks</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {months.map((mth) => (
                <Table.Tr key={mth}>
                  <Table.Td fw={600}>{shortMonth(mth)}</Table.Td>
                  {banks.map((bank) => {
                    const key = cellKey(bank, mth);
                    const edited = edits.get(key);
                    const changed = changes.some((c) => c.bank === bank && c.mth === mth);
                    return (
                      <Table.Td key={bank}>
                        <NumberInput
                          aria-label={`${bank} ${monthLabel(mth)}`}
                          value={edited ?? saved.get(key) ?? ''}
                          onChange={(value) => setCell(bank, mth, value)}
                          min={0}
                          max={MAX_BUDGET}
                          decimalScale={2}
                          thousandSeparator=","
                          prefix="$"
                          hideControls
                          size="xs"
                          w={140}
                          data-changed={changed || undefined}
                          styles={{
                            input: {
                              textAlign: 'right',
                              fontVariantNumeric: 'tabular-nums',
                              ...(changed && {
                                borderColor: 'var(--mantine-color-blue-5)',
                                background: 'var(--mantine-color-blue-0)',
                              }),
                            },
                          }}
                        />
                      </Table.Td>
                    );
                  })}
                  <Table.Td ta="right" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {dollars(monthTotal(banks, mth, edits, saved))}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {problem && (
        <div style={{ marginTop: 12 }}>
          <FormAlert kind="error">{problem}</FormAlert>
        </div>
      )}
      <Group justify="space-between" mt="md">
        <Text fz="sm" c="dimmed" data-testid="budget-changes">
          {changes.length === 0
            ? 'No changes'
            : `${changes.length} change${changes.length === 1 ? '' : 's'} to save`}
        </Text>
        <Group gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            onClick={() => {
              setProblem(null);
              save.mutate();
            }}
            loading={save.isPending}
            disabled={changes.length === 0}
          >
            Save budgets
          </Button>
        </Group>
      </Group>
    </Modal>
  );
}
