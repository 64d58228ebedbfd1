import type { ErrorCode } from '@embudo/contracts/errors';

const statusByCode: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  PASSWORD_CHANGE_REQUIRED: 403,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL: 500,
};

/** The one application error: a code, a message safe to show the user, and its HTTP status. */
export class AppError extends Error {
  readonly status: number;

  /** `retryAfterSeconds` becomes a Retry-After header (429 answers that know how long to wait). */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.status = statusByCode[code];
  }
}

export const badRequest = (message: string) => new AppError('BAD_REQUEST', message);
export const unauthorized = (message = 'No autorizado. Inicia sesión de nuevo.') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'No tienes permiso para realizar esta acción.') => new AppError('FORBIDDEN', message);
export const notFound = (message = 'No encontrado.') => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const badGateway = (message: string) => new AppError('BAD_GATEWAY', message);
export const serviceUnavailable = (message: string) => new AppError('SERVICE_UNAVAILABLE', message);
