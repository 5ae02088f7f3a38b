import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { leadsEndpoints } from '@paydesk/domain/leads/contracts';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { call, errorMessage, saveBlob } from '../../app/api';
import { base64Blob } from '../../app/upload';

/** Downloads one lead document (DownloadDocument answers it as base64) and hands it to the browser. */
export function DocumentButton({ name, label }: { name: string; label?: string }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const answer = await call(leadsEndpoints.downloadDocument, { document_name: name });
      const file = answer.document_name.split('/').pop() || 'document.pdf';
      saveBlob(base64Blob(answer.content, answer.content_type), file.endsWith('.pdf') ? file : `${file}.pdf`);
    } catch (error) {
      notifications.show({
        color: 'red',
        message: errorMessage(error, 'The document could not be downloaded.'),
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      leftSection={<IconDownload size={14} />}
      loading={busy}
      onClick={download}
      title={name}
    >
      {label ?? 'Download'}
    </Button>
  );
}
