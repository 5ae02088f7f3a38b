import { Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { saveBlob } from '../../app/api';
import { type Column, DataTable } from '../DataTable';
import { FormAlert } from '../FormAlert';
import { type Dataset, dashboardFileName, datasetsWorkbook } from './workbook';

interface DetailModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  subject?: ReactNode;
  /** Undefined while loading. */
  datasets: readonly Dataset[] | undefined;
  loading?: boolean;
  error?: string | null;
  /** The workbook's name; the dashboard's by default. */
  fileName?: (at: Date) => string;
}

type Row = Record<string, unknown>;

function columnsOf(dataset: Dataset): Column<Row>[] {
  return dataset.columns.map((column) => ({
    key: column.key,
    header: column.header,
    align: column.numeric ? 'right' : undefined,
    nowrap: true,
    render: (row) => {
      const value = row[column.key];
      if (value === null || value === undefined || value === '') return '—';
      return typeof value === 'number'
        ? value.toLocaleString('en-US', { maximumFractionDigits: 2 })
        : String(value);
    },
  }));
}

/** The rows behind a card, one table per dataset, and the same lists as a workbook made in the browser. */
export function DetailModal({
  opened,
  onClose,
  title,
  subject,
  datasets,
  loading = false,
  error = null,
  fileName = dashboardFileName,
}: DetailModalProps) {
  const file = useMutation({
    mutationFn: async (lists: readonly Dataset[]) => {
      const blob = await datasetsWorkbook(lists);
      const name = fileName(new Date());
      saveBlob(blob, name);
      return name;
    },
  });
  const close = () => {
    file.reset();
    onClose();
  };
  const ready = datasets !== undefined && !loading && !error;

  return (
    <Modal opened={opened} onClose={close} title={title} size="min(1100px, 94vw)">
      <Stack gap="md">
        {subject && (
          <Text fz="sm" c="dimmed">
            {subject}
          </Text>
        )}
        {(datasets ?? [{ title: '', columns: [], rows: [] }]).map((dataset, index) => (
          <Stack key={dataset.title || index} gap={6}>
            {dataset.title && (
              <Group justify="space-between" gap="xs">
                <Title order={3} fz="sm">
                  {dataset.title}
                </Title>
                <Text fz="xs" c="dimmed" data-testid="detail-count">
                  {dataset.rows.length.toLocaleString('en-US')} {dataset.rows.length === 1 ? 'row' : 'rows'}
                </Text>
              </Group>
            )}
            <div style={{ maxHeight: 'min(52vh, 520px)', overflow: 'auto' }}>
              <DataTable<Row>
                label={dataset.title || title}
                columns={columnsOf(dataset)}
                rows={datasets ? dataset.rows : undefined}
                rowKey={(_, i) => i}
                loading={loading || datasets === undefined}
                error={error}
                empty={{
                  title: 'No rows',
                  description: 'There is nothing behind this figure for the period shown.',
                }}
                compact
              />
            </div>
          </Stack>
        ))}
        {file.error && <FormAlert kind="error">The workbook could not be made. Try again.</FormAlert>}
        {file.isSuccess && <FormAlert kind="success">Downloaded {file.data}</FormAlert>}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            Close
          </Button>
          <Button
            leftSection={<IconFileSpreadsheet size={16} />}
            onClick={() => datasets && file.mutate(datasets)}
            loading={file.isPending}
            disabled={!ready}
          >
            Export to XLSX
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
