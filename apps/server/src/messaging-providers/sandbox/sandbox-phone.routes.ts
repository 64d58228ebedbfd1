import type { FastifyPluginAsync } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { z } from 'zod';
import { badRequest } from '../../platform/errors/app-error.ts';
import { fakeGupshupRoutes, type CustomerMessage, type FakeGupshup } from './fake-gupshup.ts';

export const FAKE_GUPSHUP_PREFIX = '/sandbox-gupshup';

const phone = z.string().trim().regex(/^\d{6,20}$/, { error: 'El teléfono debe tener solo dígitos con código de país.' });
const sendSchema = z.object({
  appName: z.string().min(1, { error: 'Elige una empresa.' }),
  phone,
  name: z.string().trim().max(80).optional(),
  group: z.object({ id: z.string().trim().regex(/^\d{6,30}$/, { error: 'El id del grupo debe tener solo dígitos.' }), name: z.string().trim().max(80).optional() }).optional(),
  message: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('text'), text: z.string().trim().min(1, { error: 'Escribe un mensaje.' }).max(4096) }),
    z.object({ kind: z.literal('location'), latitude: z.number().min(-90).max(90), longitude: z.number().min(-180).max(180), name: z.string().max(100).optional(), address: z.string().max(200).optional() }),
    z.object({ kind: z.literal('button_reply'), title: z.string().min(1).max(100), id: z.string().max(100).optional(), postbackText: z.string().max(200).optional() }),
    z.object({ kind: z.literal('quick_reply'), text: z.string().min(1).max(100), postbackText: z.string().max(200).optional() }),
    z.object({ kind: z.literal('list_reply'), title: z.string().min(1).max(100), id: z.string().max(100).optional(), postbackText: z.string().max(200).optional() }),
    z.object({ kind: z.literal('media'), dataBase64: z.string().min(1), fileName: z.string().max(200), caption: z.string().max(1024).optional(), voice: z.boolean().optional() }),
  ], { error: 'Tipo de mensaje inválido.' }),
});

/**
 * The sandbox phone's backend and the fake's Gupshup endpoints, mounted only in sandbox mode: a
 * person picks a company and plays its customer, and everything travels the real webhook path.
 */
export function sandboxRoutes(fake: FakeGupshup): FastifyPluginAsync {
  return async (app) => {
    await app.register(fakeGupshupRoutes(fake), { prefix: FAKE_GUPSHUP_PREFIX });

    app.get('/sandbox/api/apps', async () => (await fake.listApps()).map(({ appName, sourceNumber, label }) => ({ appName, sourceNumber, label })));

    app.get('/sandbox/api/conversation', async (request) => {
      const query = z.object({ appName: z.string().min(1), phone: z.string().min(1) }).safeParse(request.query);
      if (!query.success) throw badRequest('Faltan appName y phone.');
      return { messages: fake.conversation(query.data.appName, query.data.phone) };
    });

    app.post('/sandbox/api/send', { bodyLimit: 25 * 1024 * 1024 }, async (request, reply) => {
      const parsed = sendSchema.safeParse(request.body);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
      const { message, ...who } = parsed.data;
      if (!(await fake.listApps()).some((candidate) => candidate.appName === who.appName)) throw badRequest('Empresa desconocida en el sandbox.');
      let customer: CustomerMessage;
      if (message.kind === 'media') {
        const data = Buffer.from(message.dataBase64, 'base64');
        const detected = await fileTypeFromBuffer(data);
        const contentType = detected?.mime ?? 'application/octet-stream';
        const url = fake.storeFile(data, contentType, message.fileName);
        const kind = contentType.startsWith('image/webp') ? 'sticker' : contentType.startsWith('image/') ? 'image'
          : contentType.startsWith('video/') && !message.voice ? 'video' : contentType.startsWith('audio/') || message.voice ? 'audio' : 'file';
        customer = { ...who, kind, url, contentType: message.voice ? 'audio/ogg; codecs=opus' : contentType, caption: message.caption, fileName: kind === 'file' ? message.fileName : undefined };
      } else {
        customer = { ...who, ...message } as CustomerMessage;
      }
      return reply.status(201).send(await fake.customerSends(customer));
    });
  };
}
