import { Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { EXPORT_PREVIEW_ROWS } from '@paydesk/domain';
import { IconDownload } from '@tabler/icons-react';
import { type QueryKey, useMutation, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage, postDownload, saveBlob } from '../../app/api';
import { type Column, DataTable, type Row } from '../DataTable';
import { FormAlert } from '../FormAlert';

export interface ExportPreview {
  rows: Row[];
  /** Every row the file will hold. */
  total: number;
}

interface ExportModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What is being exported, e.g. the month and whether filters apply. */
  subject?: ReactNode;
  /** The file's columns, in order. */
  columns: readonly Column<Row>[];
  previewKey: QueryKey;
  loadPreview: () => Promise<ExportPreview>;
  download: { path: string; body: unknown; fallbackName: string };
}

/** Spec §2.11: a preview of the first rows, the row count, then the file from the server. */
export function ExportModal({
  opened,
  onClose,
  title,
  subject,
  columns,
  previewKey,
  loadPreview,
  download,
}: ExportModalProps) {
  const preview = useQuery({
    queryKey: previewKey,
    queryFn: loadPreview,
    enabled: opened,
    staleTime: 0,
  });
  const file = useMutation({
    mutationFn: () => postDownload(download.path, download.body, download.fallbackName),
    onSuccess: ({ blob, filename }) => saveBlob(blob, filename),
  });
  const total = preview.data?.total;
  const close = () => {
    file.reset();
    onClose();
  };

  return (
    <Modal opened={opened} onClose={close} title={title} size="min(1200px, 92vw)">
      <Stack gap="sm">
        {subject && (
          <Text fz="sm" c="dimmed">
            {subject}
          </Text>
        )}
        <Text fz="sm" fw={600}>
          Preview of the first {EXPORT_PREVIEW_ROWS} rows
        </Text>
        <DataTable<Row>
          label="Export preview"
          columns={columns}
          rows={preview.data?.rows.slice(0, EXPORT_PREVIEW_ROWS)}
          rowKey={(_, index) => index}
          loading={preview.isFetching}
          error={preview.error ? errorMessage(preview.error, 'The preview could not be loaded.') : null}
          empty={{ title: 'Nothing to export', description: 'The file would hold only the header row.' }}
          compact
        />
        {file.error && (
          <FormAlert kind="error">
            {errorMessage(file.error, 'The file could not be downloaded. Try again.')}
          </FormAlert>
        )}
        {file.isSuccess && <FormAlert kind="success">Downloaded {file.data.filename}</FormAlert>}
        <Group justify="space-between">
          <Text fz="sm" data-testid="export-count">
            {total === undefined
              ? 'Counting rows…'
              : `${total.toLocaleString('en-US')} ${total === 1 ? 'row' : 'rows'} will be exported`}
          </Text>
          <Group gap="sm">
            {file.isPending && (
              <Group gap={6} role="status">
                <Loader size="xs" />
                <Text fz="sm" c="dimmed">
                  Preparing file…
                </Text>
              </Group>
            )}
            <Button variant="default" onClick={close}>
              Close
            </Button>
            <Button
              leftSection={<IconDownload size={16} />}
              onClick={() => file.mutate()}
              loading={file.isPending}
              disabled={!preview.isSuccess}
            >
              Download
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
