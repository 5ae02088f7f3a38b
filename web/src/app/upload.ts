import { ApiError, messageOf, sessionEnded } from './api';

// Uploads with progress and base64 documents, kept apart from api.ts so the sign-in page does not load them.
/**
 * Sends a multipart form (a file with its fields) and reports the upload's progress (0–1) as it goes; fetch
 * cannot report an upload's progress, XMLHttpRequest can. Resolves to the JSON answer; throws an ApiError with
 * the server's message otherwise.
 */
export function postForm<T>(
  path: string,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () =>
      reject(new ApiError(0, 'PayDesk could not be reached. Check your connection and try again.', false));
    xhr.onload = () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText === '' ? null : JSON.parse(xhr.responseText);
      } catch {
        parsed = null;
      }
      if (xhr.status >= 200 && xhr.status < 300 && parsed !== null) {
        resolve(parsed as T);
        return;
      }
      if (xhr.status === 401) sessionEnded();
      const serverMessage = messageOf(parsed);
      reject(
        new ApiError(
          xhr.status,
          serverMessage ?? `The upload failed (HTTP ${xhr.status}).`,
          serverMessage !== null,
        ),
      );
    };
    xhr.send(form);
  });
}

/** A base64 answer (a document sent inside JSON) as a file to save. */
export function base64Blob(content: string, type: string): Blob {
  const bytes = Uint8Array.from(atob(content), (char) => char.charCodeAt(0));
  return new Blob([bytes], { type });
}
