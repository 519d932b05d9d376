import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type ErrorBody, type ServiceErrorCode, isServiceError } from '../service/errors.js';

/** Fastify's own client errors (bad JSON, body too large, wrong media type) in the spec's shape. */
const FASTIFY_CODES: Record<string, { error: ServiceErrorCode; message?: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { error: 'bad_request', message: 'The body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { error: 'bad_request', message: 'A JSON body is required' },
  FST_ERR_CTP_BODY_TOO_LARGE: { error: 'payload_too_large', message: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { error: 'unsupported_media_type', message: 'Unsupported Content-Type: send application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { error: 'bad_request', message: 'Invalid Content-Length' },
  FST_ERR_BAD_URL: { error: 'bad_request', message: 'The URL is malformed' },
  FST_ERR_ASYNC_CONSTRAINT: { error: 'bad_request', message: 'The request cannot be routed' },
};

/** Refusals the framework makes by status (the router's 414 for an over-long path, for one). */
const BY_STATUS: Record<number, { error: ServiceErrorCode; message: string }> = {
  408: { error: 'request_timeout', message: 'The request took too long to arrive' },
  413: { error: 'payload_too_large', message: 'The request body is too large' },
  414: { error: 'uri_too_long', message: 'The URL is too long' },
  415: { error: 'unsupported_media_type', message: 'Unsupported Content-Type: send application/json' },
  431: { error: 'header_fields_too_large', message: 'The request line and headers are too large' },
};

/** The one mapping from any thrown value to an HTTP status and body. */
export function toHttpError(err: unknown): ErrorBody {
  if (isServiceError(err)) return err.toBody();
  const fe = err as Partial<FastifyError> & { type?: string };
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    const known = (fe.code ? FASTIFY_CODES[fe.code] : undefined) ?? BY_STATUS[status];
    // JSON.parse errors from the body parser carry SyntaxError text; keep it short and safe.
    return { error: known?.error ?? 'bad_request', message: known?.message ?? fe.message ?? 'Bad request', status, cause: [] };
  }
  return { error: 'internal_error', message: 'Internal server error', status: 500, cause: [] };
}

export function errorHandler(err: unknown, req: FastifyRequest, reply: FastifyReply): void {
  const body = toHttpError(err);
  if (body.status >= 500) req.log.error({ err }, 'unhandled error');
  if (body.status === 401) reply.header('www-authenticate', `Bearer error="${body.error === 'invalid_token' ? 'invalid_token' : 'invalid_request'}"`);
  void reply.status(body.status).send(body);
}
