/**
 * The one error type of the service. Every failure a client can cause is a ServiceError with the
 * body shape of SPEC section 7: `{ error, message, status, cause }`. Adapters map it once: the HTTP
 * adapter to a status code and JSON body, the IPC adapter to `{ ok: false, error }`.
 */
import type { ServiceErrorCode } from '../../common/errors.js';

export type { ServiceErrorCode };
export type ErrorCause = { code?: string; message?: string; [key: string]: unknown } | string;

export interface ErrorBody {
  error: ServiceErrorCode;
  message: string;
  status: number;
  cause: ErrorCause[];
}

export class ServiceError extends Error {
  readonly error: ServiceErrorCode;
  readonly status: number;
  override readonly cause: ErrorCause[];

  constructor(status: number, error: ServiceErrorCode, message: string, cause: ErrorCause[] = []) {
    super(message);
    this.name = 'ServiceError';
    this.status = status;
    this.error = error;
    this.cause = cause;
  }

  toBody(): ErrorBody {
    return { error: this.error, message: this.message, status: this.status, cause: this.cause };
  }
}

export const isServiceError = (e: unknown): e is ServiceError => e instanceof ServiceError;

/** Constructors for the generic codes; area-specific rows of SPEC 7 live next to their area. */
export const badRequest = (message: string, cause: ErrorCause[] = []) => new ServiceError(400, 'bad_request', message, cause);
export const unauthorized = (message: string) => new ServiceError(401, 'unauthorized', message);
export const forbidden = (message: string, cause: ErrorCause[] = []) => new ServiceError(403, 'forbidden', message, cause);
export const notFound = (message: string) => new ServiceError(404, 'not_found', message);
export const conflict = (message: string) => new ServiceError(409, 'conflict', message);
export const internal = (message: string) => new ServiceError(500, 'internal_error', message);

/** SPEC 7.1: "The fields [a, b] are required for requested call". */
export const fieldsRequired = (fields: string[]) => badRequest(`The fields [${fields.join(', ')}] are required for requested call`);
/** SPEC 7.1: "The fields [a] are invalid for requested call". */
export const fieldsInvalid = (fields: string[]) => badRequest(`The fields [${fields.join(', ')}] are invalid for requested call`);
