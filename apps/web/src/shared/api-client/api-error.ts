/** A failed call: `message` is what the user may read; `serverMessage` is set only when the server sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly serverMessage: string | undefined;

  constructor(status: number, message: string, details: { code?: string; serverMessage?: string } = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = details.code;
    this.serverMessage = details.serverMessage;
  }
}

/** The server's message when it sent one, else the screen's own fallback text (spec 01 §8). */
export function errorMessageOr(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.serverMessage) return error.serverMessage;
  return fallback;
}
