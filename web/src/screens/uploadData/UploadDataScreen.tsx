import { Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import {
  monthLabel,
  UPLOAD_TYPES,
  type UploadColumn,
  type UploadType,
  uploadExportFilePath,
  uploadPath,
  uploadTypes,
} from '@paydesk/domain';
import { IconFileExport, IconFileImport } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '../../app/api';
import { uploadKeys } from '../../app/queryKeys';
import type { Column, Row } from '../../components/DataTable';
import { ExportModal } from '../../components/ExportModal';
import { type CellType, formatCell, isNumericType } from '../../components/format';
import { ColumnLayout, ImportModal } from '../../components/ImportModal';
import { MonthSelect } from '../../components/MonthSelect';
import { PageHeader } from '../../components/PageHeader';
import { hasMonth, useUploadData } from './useUploadData';

function uploadColumn(column: UploadColumn): Column<Row> {
  const type: CellType = column.type === 'month' ? 'text' : column.type;
  return {
    key: column.header,
    header: column.header,
    render: (row) => formatCell(type, row[column.header]),
    align: isNumericType(type) ? 'right' : undefined,
    nowrap: true,
  };
}

function UploadData() {
  const upload = useUploadData();
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const { type, month } = upload;
  const layout = uploadTypes[type];
  const monthly = hasMonth(type);
  const stored = upload.rows.data?.length;

  return (
    <>
      <PageHeader
        title="Upload Data"
        description="Reference data kept as spreadsheets: import a file to replace what it covers, or export the stored rows."
      />
      <Stack gap="md">
        <Paper withBorder radius="md" p="md">
          <Stack gap="md">
            <Group justify="space-between" align="flex-end" gap="md">
              <Stack gap={6}>
                <Text fz="sm" fw={600} id="upload-type-label">
                  File type
                </Text>
                <SegmentedControl
                  aria-labelledby="upload-type-label"
                  value={type}
                  onChange={(value) => upload.setType(value as UploadType)}
                  data={UPLOAD_TYPES.map((t) => ({ value: t, label: uploadTypes[t].label }))}
                />
              </Stack>
              {monthly ? (
                <Stack gap={6}>
                  <Text fz="sm" fw={600}>
                    Month to export
                  </Text>
                  <MonthSelect
                    value={month}
                    onChange={upload.setMonth}
                    min={upload.firstMonth}
                    max={upload.lastMonth}
                    label="Month to export"
                  />
                </Stack>
              ) : (
                <Text fz="sm" c="dimmed" maw={320}>
                  ScheduleA is not kept by month: the export holds every ISO’s schedule.
                </Text>
              )}
            </Group>
            <Group gap="sm">
              <Button leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
                Import XLSX
              </Button>
              <Button
                variant="default"
                leftSection={<IconFileExport size={16} />}
                onClick={() => setExporting(true)}
              >
                Export XLSX
              </Button>
              <Text fz="sm" c="dimmed" data-testid="stored-count">
                {upload.rows.error
                  ? errorMessage(upload.rows.error, 'The stored rows could not be counted.')
                  : stored === undefined
                    ? 'Counting stored rows…'
                    : `${stored.toLocaleString('en-US')} ${layout.label} rows stored${monthly ? ` for ${monthLabel(month)}` : ''}`}
              </Text>
            </Group>
          </Stack>
        </Paper>
        <Paper withBorder radius="md" p="md">
          <Stack gap="sm">
            <Title order={2} fz="md">
              {layout.label} file layout
            </Title>
            <ColumnLayout columns={layout.columns} />
            <Text fz="sm">
              An import replaces <strong>{layout.replaces}</strong>. An export has the same layout, so an
              exported file can be edited and imported back.
            </Text>
          </Stack>
        </Paper>
      </Stack>
      <ImportModal
        opened={importing}
        onClose={() => setImporting(false)}
        title={`Import ${layout.label}`}
        path={uploadPath(type)}
        columns={layout.columns}
        replaces={layout.replaces}
        onImported={upload.refresh}
      />
      <ExportModal
        opened={exporting}
        onClose={() => setExporting(false)}
        title={`Export ${layout.label} to XLSX`}
        subject={monthly ? `${layout.label} rows for ${monthLabel(month)}.` : 'Every ScheduleA row.'}
        columns={layout.columns.map(uploadColumn)}
        previewKey={uploadKeys.preview(type, monthly ? month : null)}
        loadPreview={upload.loadPreview}
        download={{
          path: uploadExportFilePath(type),
          body: upload.body,
          fallbackName: `${layout.label}${monthly ? `-${month.slice(0, 7)}` : ''}.xlsx`,
        }}
      />
    </>
  );
}

/** Spec document 2 §2.9: admin, finance_admin and sales_admin only. */
export default function UploadDataScreen() {
  return <UploadData />;
}
