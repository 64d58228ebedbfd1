import type { FastifyPluginAsync } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { errorResponse, fileResponse } from '@embudo/contracts/http/common';
import { z } from 'zod';
import { byteRange } from '../../platform/http/byte-range.ts';
import { MEDIA_URL_PREFIX, type MediaStorage } from '../../platform/storage/media-storage.ts';
import { receiveWebhook, type InboundDeps } from './inbound.service.ts';

/**
 * Provider callbacks and stored media: public by nature. A webhook proves itself with the
 * tenant's secret in its path; media names are random UUIDs.
 */
/** Gupshup only needs a 2xx, with no body. */
const webhookReceived = z.undefined().describe('Received (or recorded as a rejection).');

export function webhooksRoutes(deps: InboundDeps & { storage: MediaStorage }): FastifyPluginAsync {
  return async (app) => {
    // The webhook reads its body as text, whatever the content type, and parses it itself: a delivery that is
    // not JSON, or too deep to parse safely, is recorded as a rejection instead of failing in a body parser.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
      raw.post('/webhooks/gupshup/:tenantId/:secret', { schema: { response: { 200: webhookReceived } } }, async (request, reply) => {
        const { tenantId, secret } = request.params as { tenantId: string; secret: string };
        await receiveWebhook(deps, tenantId, secret, typeof request.body === 'string' ? request.body : '');
        return reply.status(200).send();
      });
    });

    app.get(
      `${MEDIA_URL_PREFIX}/:tenantId/:name`,
      {
        schema: {
          response: {
            200: fileResponse('The whole file.'),
            206: fileResponse('The byte range asked for with Range.'),
            404: errorResponse,
            416: z.undefined().describe('The range lies outside the file.'),
          },
        },
      },
      async (request, reply) => {
        const { tenantId, name } = request.params as { tenantId: string; name: string };
        const data = await deps.storage.read(`${MEDIA_URL_PREFIX}/${tenantId}/${name}`);
        if (!data) return reply.status(404).send({ code: 'NOT_FOUND', message: 'Archivo no encontrado.' });
        const type = (await fileTypeFromBuffer(data))?.mime ?? (name.endsWith('.txt') ? 'text/plain; charset=utf-8' : 'application/octet-stream');
        reply
          .type(type)
          .header('cache-control', 'private, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .header('accept-ranges', 'bytes');
        const range = byteRange(request.headers.range, data.length);
        if (range === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${data.length}`).send();
        if (!range) return reply.send(data);
        return reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${data.length}`)
          .send(data.subarray(range.start, range.end + 1));
      },
    );
  };
}
