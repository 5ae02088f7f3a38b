import {
  Alert,
  Badge,
  Button,
  Code,
  FileInput,
  Group,
  Loader,
  Modal,
  ScrollArea,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { type ImportAnswer, type UploadColumn, XLSX_MIME } from '@paydesk/domain';
import { IconAlertCircle, IconCircleCheck, IconFileSpreadsheet, IconUpload } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { postFile } from '../../app/api';
import { canImport, fileProblem } from './importFile';

type Outcome =
  | { kind: 'success'; answer: ImportAnswer | null }
  | { kind: 'fail'; answer: ImportAnswer | null }
  | { kind: 'error' };

interface ImportModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** Where the file goes (with its query string, e.g. the month). */
  path: string;
  /** The layout the server expects. */
  columns: readonly UploadColumn[];
  /** What an import replaces, e.g. 'the activity of each MID in the file for October 2026'. */
  replaces: ReactNode;
  /** After a successful import: refresh what it changed. */
  onImported: () => unknown;
}

/** The expected columns, in order; required ones marked. */
export function ColumnLayout({ columns }: { columns: readonly UploadColumn[] }) {
  return (
    <Stack gap={6}>
      <Group gap={6} data-testid="column-layout">
        {columns.map((column, index) => (
          <Code
            key={column.header}
            fw={column.required ? 700 : 400}
            title={`${column.type}${column.required ? ', required' : ''}`}
          >
            {index + 1}. {column.header}
            {column.required ? ' *' : ''}
          </Code>
        ))}
      </Group>
      <Text fz="xs" c="dimmed">
        First sheet; row 1 holds these headers, then one record per row. * required. Amounts are plain numbers
        (e.g. 1234.50), months YYYY-MM, dates YYYY-MM-DD.
      </Text>
    </Stack>
  );
}

/** Spec §2.11/§4: choose an .xlsx file, import it, see Success or Fail and why. */
export function ImportModal({
  opened,
  onClose,
  title,
  path,
  columns,
  replaces,
  onImported,
}: ImportModalProps) {
  const [file, setFile] = useState<File | null>(null);
  const [importing, setImporting] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const close = () => {
    if (importing) return;
    setFile(null);
    setOutcome(null);
    onClose();
  };

  const run = async () => {
    if (!file || !canImport(file)) return;
    setImporting(true);
    setOutcome(null);
    try {
      const answer = await postFile<ImportAnswer>(path, file, XLSX_MIME);
      if (answer.status === 200) {
        setOutcome({ kind: 'success', answer: answer.body });
        // The lists refresh in the background; the result shows now.
        void onImported();
      } else {
        setOutcome({ kind: 'fail', answer: answer.body });
      }
    } catch {
      setOutcome({ kind: 'error' });
    } finally {
      setImporting(false);
    }
  };

  const problem = fileProblem(file);
  return (
    <Modal opened={opened} onClose={close} title={title} size="lg" closeOnClickOutside={!importing}>
      <Stack gap="md">
        <Text fz="sm">
          Importing replaces {replaces}. The whole file is checked first; if any row is wrong nothing is
          changed.
        </Text>
        <Stack gap={6}>
          <Text fz="sm" fw={600}>
            Expected columns
          </Text>
          <ColumnLayout columns={columns} />
        </Stack>
        <FileInput
          label="Spreadsheet (.xlsx)"
          placeholder="Choose a file"
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          leftSection={<IconFileSpreadsheet size={16} />}
          value={file}
          onChange={(chosen) => {
            setFile(chosen);
            setOutcome(null);
          }}
          clearable
          error={problem}
          disabled={importing}
        />
        {importing && (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text fz="sm">Importing {file?.name}…</Text>
          </Group>
        )}
        {outcome && <OutcomeView outcome={outcome} />}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close} disabled={importing}>
            Close
          </Button>
          <Button
            leftSection={<IconUpload size={16} />}
            onClick={run}
            disabled={!canImport(file) || importing}
            loading={importing}
          >
            Import
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === 'error') {
    return (
      <Alert
        color="red"
        icon={<IconAlertCircle size={18} />}
        title="Fail...Please check the file"
        role="alert"
      >
        The file could not be sent. Check your connection and the file, then try again.
      </Alert>
    );
  }
  const answer = outcome.answer;
  if (outcome.kind === 'success') {
    return (
      <Alert color="teal" icon={<IconCircleCheck size={18} />} title="Success" role="status">
        {answer?.message ?? 'The file was imported.'}
        {answer?.rows !== undefined && (
          <Badge ml="xs" variant="light" color="teal">
            {answer.rows.toLocaleString('en-US')} rows
          </Badge>
        )}
      </Alert>
    );
  }
  const problems = answer?.problems ?? [];
  return (
    <Alert color="red" icon={<IconAlertCircle size={18} />} title="Fail" role="alert">
      <Stack gap="xs">
        <Text fz="sm">{answer?.message ?? 'The file was not imported.'}</Text>
        {problems.length > 0 && (
          <ScrollArea.Autosize mah={240} type="auto">
            <Table fz="xs" verticalSpacing={4} aria-label="Problems in the file" withRowBorders bg="white">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Column</Table.Th>
                  <Table.Th>Problem</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {problems.map((p) => (
                  <Table.Tr key={`${p.row}-${p.column ?? ''}-${p.message}`}>
                    <Table.Td>{p.row}</Table.Td>
                    <Table.Td>{p.column ?? '—'}</Table.Td>
                    <Table.Td>{p.message}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Alert>
  );
}
