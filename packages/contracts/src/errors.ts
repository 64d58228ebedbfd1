/** Error codes shared by server and client; the server sends `{ code, message }`. */
export const errorCodes = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'CONFLICT',
  'TOO_MANY_REQUESTS',
  'PASSWORD_CHANGE_REQUIRED',
  /** An outside service (the messaging provider) failed or answered something unusable. */
  'BAD_GATEWAY',
  /** A capability this installation has not configured (e.g. no AI model). */
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export interface ErrorBody {
  code: ErrorCode;
  message: string;
}
