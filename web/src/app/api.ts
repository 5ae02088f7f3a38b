import { accountPaths } from '@paydesk/domain';

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

function messageOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'message' in body) {
    const { message } = body as { message: unknown };
    if (typeof message === 'string' && message.trim() !== '') return message;
  }
  return null;
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
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
  return call<T>('GET', path);
}

export function post<T>(path: string, body: unknown = {}): Promise<T> {
  return call<T>('POST', path, body);
}

/** The message to show for a failed call; `fallback` when the server did not explain. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.fromServer) return error.message;
  return fallback;
}
