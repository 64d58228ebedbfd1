import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import '@fastify/multipart';
import { z } from 'zod';
import {
  initiateConversationRequest, noteRequest, scheduleRequest, sendMediaFields, providerSettingsRequest, providerSettingsResponse, sendTemplateRequest, sendTextRequest, timelineQuery,
} from '@embudo/contracts/http/chats';
import type { Db } from '../../platform/db/database.ts';
import { badRequest } from '../../platform/errors/app-error.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { readMultipartUpload } from '../../platform/http/multipart-upload.ts';
import { requireOwnerOrAdmin } from '../../platform/policy/policy.ts';
import type { MediaStorage } from '../../platform/storage/media-storage.ts';
import { actorOf } from '../users/users.service.ts';
import { monthUsage } from '../usage/usage.service.ts';
import { addNote, markRead, queueOutbound, sendText, assertWindowOpenForFiles, visibleCard, writableCard, type Author, type MarkReadDeps } from './outbound.service.ts';
import { cardTimeline, decodeCursor } from './timeline.service.ts';
import { effectiveAccount, updateProviderSettings, webhookUrlOf } from './provider-settings.service.ts';
import { checkUpload, MAX_UPLOAD_BYTES } from './media-upload.ts';
import { toMessageDto } from './message-dto.ts';
import { scheduleMessage, type ScheduleDeps } from './schedule.service.ts';
import { initiateConversation, sendTemplate } from './template-send.service.ts';

export interface ChatsRoutesOptions extends ScheduleDeps, Pick<MarkReadDeps, 'enqueueReadReceipt'> {
  storage: MediaStorage;
  publicUrl: () => string;
  sandbox: boolean;
}

export async function authorOf(db: Db, request: FastifyRequest): Promise<Author> {
  const session = sessionOf(request);
  return { tenantId: session.tenant.id, actor: await actorOf(db, session.user), userName: session.user.name };
}

const cardParams = z.object({ id: z.uuid({ error: 'Chat inválido.' }) });

export const chatsRoutes: FastifyPluginAsyncZod<ChatsRoutesOptions> = async (app, options) => {
  const { db } = options;

  app.get('/gupshup/settings', { schema: { response: { 200: providerSettingsResponse } } }, async (request) => {
    const session = sessionOf(request);
    requireOwnerOrAdmin(await actorOf(db, session.user));
    const account = await effectiveAccount(db, session.tenant, options.sandbox);
    return { appName: account.appName, sourceNumber: account.sourceNumber, webhookUrl: webhookUrlOf(options.publicUrl(), session.tenant.id, account.webhookSecret), sandbox: options.sandbox };
  });

  app.put('/gupshup/settings', { schema: { body: providerSettingsRequest, response: { 200: providerSettingsResponse } } }, async (request) => {
    const session = sessionOf(request);
    requireOwnerOrAdmin(await actorOf(db, session.user));
    const saved = await updateProviderSettings(db, session.tenant, request.body);
    return { appName: saved.appName, sourceNumber: saved.sourceNumber, webhookUrl: webhookUrlOf(options.publicUrl(), session.tenant.id, saved.webhookSecret), sandbox: options.sandbox };
  });

  app.get('/cards/:id/messages', { schema: { params: cardParams, querystring: timelineQuery } }, async (request) => {
    const author = await authorOf(db, request);
    const card = await visibleCard(db, author, request.params.id);
    const cursor = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
    if (request.query.cursor && !cursor) throw badRequest('Cursor inválido.');
    return cardTimeline(db, author.tenantId, card.id, { cursor, limit: request.query.limit });
  });

  app.post('/message', { schema: { body: sendTextRequest } }, async (request, reply) =>
    reply.status(201).send(await sendText(options, await authorOf(db, request), request.body)));

  app.post('/message/media', async (request, reply) => {
    const author = await authorOf(db, request);
    const { fields, file: upload } = await readMultipartUpload(request, {
      fileField: 'media', maxFileBytes: MAX_UPLOAD_BYTES, tooLarge: 'El archivo es demasiado grande.', fallbackName: 'archivo',
      missingMessage: 'Envía el archivo como multipart/form-data en el campo media.',
    });
    const parsed = sendMediaFields.safeParse(fields);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
    if (!upload || upload.data.length === 0) throw badRequest('Falta el archivo (campo media).');

    const card = await writableCard(db, author, parsed.data.cardId);
    assertWindowOpenForFiles(card);
    const media = await checkUpload(upload.data, upload.fileName);
    const mediaUrl = await options.storage.save(author.tenantId, media.data, media.extension);
    const fileName = media.kind === 'audio' && media.mime === 'audio/ogg' && !upload.fileName.endsWith('.ogg')
      ? `voice-${Date.now()}.ogg`
      : upload.fileName;
    const message = await queueOutbound(options, { tenantId: author.tenantId, userId: author.actor.userId }, card, {
      type: media.kind, text: parsed.data.caption?.trim() || null, mediaUrl, mediaMime: media.mime, mediaFileName: fileName,
    }, { tempId: parsed.data.tempId, quotedMessageId: parsed.data.quotedMessageId });
    return reply.status(201).send(toMessageDto(message));
  });

  app.post('/message/template', { schema: { body: sendTemplateRequest } }, async (request, reply) =>
    reply.status(201).send(await sendTemplate(options, await authorOf(db, request), request.body)));

  app.post('/initiate-conversation', { schema: { body: initiateConversationRequest } }, async (request, reply) =>
    reply.status(201).send(await initiateConversation(options, await authorOf(db, request), request.body)));

  app.post('/message/schedule', { schema: { body: scheduleRequest } }, async (request, reply) =>
    reply.status(201).send(await scheduleMessage(options, await authorOf(db, request), request.body)));

  app.post('/note', { schema: { body: noteRequest } }, async (request, reply) =>
    reply.status(201).send(await addNote(options, await authorOf(db, request), request.body)));

  app.post('/cards/:id/mark-read', { schema: { params: cardParams } }, async (request) =>
    markRead(options, await authorOf(db, request), request.params.id));

  app.get('/usage', async (request) => monthUsage(db, sessionOf(request).tenant.id));
};
