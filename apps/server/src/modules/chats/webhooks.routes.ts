import type { FastifyPluginAsync } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { errorResponse, fileResponse } from '@embudo/contracts/http/common';
import { z } from 'zod';
import { notFound } from '../../platform/errors/app-error.ts';
import { byteRange } from '../../platform/http/byte-range.ts';
import { MEDIA_URL_PREFIX, type MediaStorage } from '../../platform/storage/media-storage.ts';
import { providerNames, type ProviderName } from '../../messaging-providers/provider.ts';
import { answerWebhookHandshake, receiveWebhook, type InboundDeps } from './inbound.service.ts';

/**
 * Provider callbacks and stored media: public by nature. A webhook proves itself with the tenant's secret in its
 * path (and Meta's deliveries with their signature too); media names are random UUIDs. Members-only media (knowledge
 * files) is the exception: it asks for a session of its company (platform/storage/media-storage.ts).
 */
/** Providers only need a 2xx, with no body. */
const webhookReceived = z.undefined().describe('Received (or recorded as a rejection).');
const webhookHandshake = z.string().describe("The handshake's challenge, echoed as plain text.");

type WebhookParams = { tenantId: string; secret: string };
const MEDIA_NOT_FOUND = 'Archivo no encontrado.';

export function webhooksRoutes(deps: InboundDeps & { storage: MediaStorage }): FastifyPluginAsync {
  return async (app) => {
    // The webhook reads its body as raw bytes, whatever the content type, and parses it itself: a signature is over
    // the bytes (Meta), and a delivery that is not JSON, or too deep to parse safely, is recorded as a rejection
    // instead of failing in a body parser.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      for (const provider of providerNames) {
        raw.post(`/webhooks/${provider}/:tenantId/:secret`, { schema: { response: { 200: webhookReceived } } }, async (request, reply) => {
          const { tenantId, secret } = request.params as WebhookParams;
          const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          await receiveWebhook(deps, provider, tenantId, secret, { headers: request.headers, rawBody });
          return reply.status(200).send();
        });
      }
      // Meta checks a callback URL with a GET before it delivers anything (meta-cloud.md §3.1).
      const handshakeProvider: ProviderName = 'meta';
      raw.get(
        `/webhooks/${handshakeProvider}/:tenantId/:secret`,
        { schema: { response: { 200: webhookHandshake, 403: webhookHandshake } } },
        async (request, reply) => {
          const { tenantId, secret } = request.params as WebhookParams;
          const answer = await answerWebhookHandshake(deps, handshakeProvider, tenantId, secret, request.query as Record<string, unknown>);
          return reply
            .status(answer.status === 200 ? 200 : 403)
            .type('text/plain; charset=utf-8')
            .send(answer.body);
        },
      );
    });

    app.get(
      `${MEDIA_URL_PREFIX}/:tenantId/:name`,
      {
        schema: {
          response: {
            200: fileResponse('The whole file.'),
            206: fileResponse('The byte range asked for with Range.'),
            401: errorResponse.describe('A members-only file (a knowledge file) asked for without a valid session.'),
            403: errorResponse.describe('The member must still replace a temporary password.'),
            404: errorResponse.describe('No such file, or a members-only file of another company.'),
            416: z.undefined().describe('The range lies outside the file.'),
          },
        },
      },
      async (request, reply) => {
        const { tenantId, name } = request.params as { tenantId: string; name: string };
        const stored = await deps.storage.open(`${MEDIA_URL_PREFIX}/${tenantId}/${name}`);
        if (!stored) throw notFound(MEDIA_NOT_FOUND);
        // Another company's member is told what a stranger to the file would be: it does not exist.
        if (stored.access === 'members' && (await request.server.signedInMember(request)).tenant.id !== tenantId) throw notFound(MEDIA_NOT_FOUND);
        const { data } = stored;
        const type = (await fileTypeFromBuffer(data))?.mime ?? (name.endsWith('.txt') ? 'text/plain; charset=utf-8' : 'application/octet-stream');
        reply
          .type(type)
          // A members-only file is not kept by the browser past the session that fetched it.
          .header('cache-control', stored.access === 'members' ? 'private, no-store' : 'private, max-age=31536000, immutable')
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
