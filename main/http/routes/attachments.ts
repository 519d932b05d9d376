import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { isServiceError } from '../../service/errors.js';
import type { Service } from '../../service/index.js';
import { IDEMPOTENCY_HEADER } from '../../service/idempotency/idempotency.js';
import { routeOf, sendStored, uploadBinding } from '../idempotency.js';
import type { StoredResponse } from '../../service/idempotency/idempotency.js';
import { MULTIPART_OVERHEAD_BYTES, attachmentErrors, type UploadPart, type UploadTicket } from '../../service/messages/attachments/service.js';

type Params = { attachment_id: string };

/** The multipart parser's own errors, as the spec-shaped 400s of the attachments area. */
function multipartError(e: unknown): unknown {
  if (isServiceError(e)) return e;
  switch ((e as { code?: string }).code) {
    case 'FST_FILES_LIMIT':
      return attachmentErrors.oneFileOnly();
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return attachmentErrors.tooManyParts();
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return attachmentErrors.notMultipart();
    default:
      // busboy: "Unexpected end of form", "Malformed part header", a missing boundary...
      return attachmentErrors.malformed();
  }
}

/**
 * After an upload was answered (or failed), whatever is left of the request body is read and
 * dropped: the parser unpipes itself when it finishes or fails, and a request left half-read
 * would keep its keep-alive connection busy forever. A body that still has more than `cap` bytes
 * to give (a chunked upload far over the limit) gets its connection closed instead.
 */
function discardRest(raw: IncomingMessage, cap: number): void {
  raw.unpipe();
  if (raw.readableEnded || raw.destroyed) return;
  let dropped = 0;
  raw.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > cap) raw.destroy();
  });
  raw.resume();
}

/**
 * SPEC 4.12 and 4.13. The multipart parser is registered only in this plugin. Authentication and
 * every check that needs no body run in `onRequest`, before the body is read; the body is then
 * streamed part by part (busboy stops counting file bytes at 25 MB and marks the part truncated),
 * never buffered.
 */
export const attachmentsRoutes = (service: Service) => async (app: FastifyInstance) => {
  const { maxBytes } = service.attachments.limits;
  await app.register(multipart, {
    // Keep the client's file name exactly as sent, so "a/b.pdf" is refused instead of becoming "b.pdf".
    preservePath: true,
    // Size overflow is detected on the stream (`truncated`), not thrown by the plugin.
    throwFileSizeLimit: false,
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024, fieldNameSize: 100, parts: 16, headerPairs: 16 },
  });

  const tickets = new WeakMap<FastifyRequest, UploadTicket>();
  const keys = new WeakMap<FastifyRequest, string>();

  async function* partsOf(req: FastifyRequest): AsyncGenerator<UploadPart> {
    try {
      for await (const part of req.parts()) yield part;
    } catch (e) {
      throw multipartError(e);
    }
  }

  app.post(
    '/messages/attachments',
    {
      onRequest: async (req) => {
        const principal = app.principal(req);
        const contentLength = req.headers['content-length'];
        const key = service.idempotency.parseKey(req.headers[IDEMPOTENCY_HEADER]);
        tickets.set(req, service.attachments.beginUpload(principal, req.query, req.headers['content-type'], contentLength));
        if (key !== null) keys.set(req, key);
      },
    },
    async (req, reply) => {
      const ticket = tickets.get(req);
      if (!ticket) throw new Error('upload ticket missing: onRequest did not run');
      // X-Idempotency-Key: bound to the route and the file (its name and content hash), checked
      // once the file is read: the same file replays the first answer, another file under the same
      // key is 422 (it replayed the first file before: issue 25).
      const key = keys.get(req);
      const userId = ticket.principal.userId;
      let binding = routeOf(req);
      let stored: StoredResponse | undefined;
      let uploaded: { id: string } | null;
      try {
        uploaded = await service.attachments.upload(ticket, partsOf(req), (file) => {
          if (key === undefined) return true;
          binding = uploadBinding(routeOf(req), file);
          stored = service.idempotency.lookup(userId, key, binding);
          return stored === undefined;
        });
      } finally {
        discardRest(req.raw, maxBytes + MULTIPART_OVERHEAD_BYTES);
      }
      if (uploaded === null) return sendStored(reply, stored!);
      if (key === undefined) return uploaded;
      const answer = service.idempotency.storeFirst(userId, key, binding, { status: 200, body: JSON.stringify(uploaded), version: null });
      return answer.body === JSON.stringify(uploaded) ? uploaded : sendStored(reply, answer);
    },
  );

  /** The download's headers, after every check of 4.13 (a HEAD answers the same as a GET). */
  async function opened(req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const file = await service.attachments.download(app.principal(req), req.params.attachment_id, req.query);
    reply
      .header('content-type', file.mediaType)
      .header('content-length', String(file.size))
      .header('content-disposition', file.contentDisposition)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cache-control', 'private, no-store');
    return file.stream;
  }

  // Declared before the GET: Fastify's own HEAD for a GET route reads the whole stream and drops it.
  app.head<{ Params: Params }>('/messages/attachments/:attachment_id', async (req, reply) => {
    (await opened(req, reply)).destroy();
    return reply.send();
  });

  app.get<{ Params: Params }>('/messages/attachments/:attachment_id', async (req, reply) => reply.send(await opened(req, reply)));
};
