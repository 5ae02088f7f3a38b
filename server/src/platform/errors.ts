/** Every error the API answers on purpose. One code → one HTTP status; the message is for people. */
const STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  locked: 423,
  too_many_requests: 429,
  busy: 503,
} as const;

export type ErrorCode = keyof typeof STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** More fields of the answer, e.g. the problems of a refused import. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
  get status(): number {
    return STATUS[this.code];
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const forbidden = (message = 'You do not have permission to do this') =>
  new AppError('forbidden', message);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
