import { accountPaths } from '@paydesk/domain/contracts/accountPaths';
import type { AnswerOf, Endpoint, InputOf } from '@paydesk/domain/endpoint';
import type { EndpointRef } from '@paydesk/domain/endpointRef';

/** A failed call: the HTTP status (0 when the request never got an answer) and a message fit to show. */
export class ApiError extends Error {
  readonly status: number;
  /** True when the message came from the server's answer rather than from the client. */
  readonly fromServer: boolean;

  constructor(status: number, message: string, fromServer: boolean) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fromServer = fromServer;
  }
}

/**
 * Calls where 401 is an answer the screen shows itself (wrong credentials, no session yet), rather
 * than a sign that the session ended while the user was working.
 */
const OWN_401_PATHS: ReadonlySet<string> = new Set([
  accountPaths.signin,
  accountPaths.validateUser,
  accountPaths.signout,
  accountPaths.forgotPassword,
  accountPaths.checkResetPassword,
  accountPaths.resetPassword,
]);

let onSessionEnded: () => void = () => {};

/** The session layer registers what to do when a call finds the session gone (go to /login). */
export function setSessionEndedHandler(handler: () => void): () => void {
  onSessionEnded = handler;
  return () => {
    if (onSessionEnded === handler) onSessionEnded = () => {};
  };
}

/** Tells the app the session has ended (an answer of 401 outside request(), e.g. an upload). */
export function sessionEnded(): void {
  onSessionEnded();
}

/** The server's message in an answer's body, if it has one. */
export function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers:
        body === undefined
          ? { Accept: 'application/json' }
          : { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'PayDesk could not be reached. Check your connection and try again.', false);
  }

  const text = await response.text();
  let parsed: unknown = null;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }

  if (!response.ok) {
    const serverMessage = messageOf(parsed);
    if (response.status === 401 && !OWN_401_PATHS.has(path.split('?')[0] ?? path)) onSessionEnded();
    throw new ApiError(
      response.status,
      serverMessage ?? `The request failed (HTTP ${response.status}).`,
      serverMessage !== null,
    );
  }
  if (text !== '' && parsed === null) {
    throw new ApiError(response.status, 'The server sent an answer PayDesk could not read.', false);
  }
  return parsed as T;
}

export function get<T>(path: string): Promise<T> {
  return request<T>('GET', path);
}

export function post<T>(path: string, body: unknown = {}): Promise<T> {
  return request<T>('POST', path, body);
}

/** A GET call's input as a query string: a list repeats its key; an absent value is left out. */
function queryString(input: unknown): string {
  if (!input || typeof input !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) params.append(key, String(item));
    }
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Calls an endpoint declared in domain/: the input and the answer are typed by its schemas, so a field renamed
 * on the server fails to compile here.
 */
export function call<E extends Endpoint>(
  endpoint: E | EndpointRef<E>,
  ...[input]: undefined extends InputOf<E> ? [input?: InputOf<E>] : [input: InputOf<E>]
): Promise<AnswerOf<E>> {
  return endpoint.method === 'GET'
    ? get<AnswerOf<E>>(`${endpoint.path}${queryString(input)}`)
    : post<AnswerOf<E>>(endpoint.path, input ?? {});
}

/** The message to show for a failed call; `fallback` when the server did not explain. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.fromServer) return error.message;
  return fallback;
}

/** The server refused the call for coming too often from this address; its message says when to try again. */
export function isRateLimited(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 429 && error.fromServer;
}

/** A call whose answer the screen judges by status itself (an import: 200 'Success', anything else 'Fail'). */
export interface RawAnswer<T> {
  status: number;
  ok: boolean;
  body: T | null;
}

/**
 * Sends a file as the raw request body (the server reads the spreadsheet itself). Throws an ApiError with
 * status 0 only when no answer came; any HTTP answer is returned for the caller to judge.
 */
export async function postFile<T>(path: string, file: Blob, contentType: string): Promise<RawAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': contentType, Accept: 'application/json' },
      body: file,
    });
  } catch {
    throw new ApiError(0, 'PayDesk could not be reached. Check your connection and try again.', false);
  }
  if (response.status === 401) onSessionEnded();
  let body: T | null = null;
  try {
    body = (await response.json()) as T;
  } catch {
    body = null;
  }
  return { status: response.status, ok: response.ok, body };
}

/** `attachment; filename="SelfServe-2026-10.xlsx"` → the file name; `fallback` when there is none. */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // Fall through to the plain form.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  const name = (plain?.[2] ?? plain?.[1] ?? '').trim();
  // A name is a name, not a path.
  const base = name.split(/[\\/]/).pop() ?? '';
  return base === '' ? fallback : base;
}

/** POSTs JSON and returns the file the server answers with, named as the server names it. */
export async function postDownload(
  path: string,
  body: unknown,
  fallbackName: string,
): Promise<{ blob: Blob; filename: string }> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'PayDesk could not be reached. Check your connection and try again.', false);
  }
  if (!response.ok) {
    let serverMessage: string | null = null;
    try {
      serverMessage = messageOf(JSON.parse(await response.text()));
    } catch {
      serverMessage = null;
    }
    if (response.status === 401) onSessionEnded();
    throw new ApiError(
      response.status,
      serverMessage ?? `The file could not be prepared (HTTP ${response.status}).`,
      serverMessage !== null,
    );
  }
  const blob = await response.blob();
  return {
    blob,
    filename: filenameFromDisposition(response.headers.get('Content-Disposition'), fallbackName),
  };
}

/** Hands a downloaded file to the browser to save. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
