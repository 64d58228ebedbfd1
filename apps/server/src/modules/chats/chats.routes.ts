import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import '@fastify/multipart';
import { z } from 'zod';
import {
  initiateConversationRequest,
  noteRequest,
  scheduleRequest,
  sendMediaFields,
  providerSettingsRequest,
  providerSettingsResponse,
  sendTemplateRequest,
  sendTextRequest,
  timelineQuery,
  initiateConversationResponse,
  reactionRequest,
  messageResponse,
  noteResponse,
  scheduledMessageResponse,
  timelineResponse,
  usageResponse,
} from '@embudo/contracts/http/chats';
import { cardSummaryResponse } from '@embudo/contracts/http/funnels';
import { badRequest } from '../../platform/errors/app-error.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { requestScope } from '../../platform/http/request-scope.ts';
import { MAX_UPLOAD_BYTES, readMultipartUpload } from '../../platform/http/multipart-upload.ts';
import { requireOwnerOrAdmin } from '../../platform/policy/policy.ts';
import type { MediaStorage } from '../../platform/storage/media-storage.ts';
import { monthUsage } from '../usage/index.ts';
import { addNote, markRead, queueOutbound, sendText, assertWindowOpenForFiles, visibleCard, writableCard, type MarkReadDeps } from './outbound.service.ts';
import { cardTimeline, decodeCursor } from './timeline.service.ts';
import { effectiveAccount, updateProviderSettings, webhookUrlOf } from '../tenants/index.ts';
import { checkUpload } from './media-upload.ts';
import { toMessageDto } from './message-dto.ts';
import { reactToMessage, type ReactionDeps } from './message-reactions.service.ts';
import { scheduleMessage, type ScheduleDeps } from './schedule.service.ts';
import { initiateConversation, sendTemplate } from './template-send.service.ts';

export interface ChatsRoutesOptions extends ScheduleDeps, Pick<MarkReadDeps, 'enqueueReadReceipt'>, Pick<ReactionDeps, 'lines' | 'enqueueReaction'> {
  storage: MediaStorage;
  publicUrl: () => string;
  sandbox: boolean;
}

const cardParams = z.object({ id: z.uuid({ error: 'Chat inválido.' }) });
const messageParams = z.object({ id: z.uuid({ error: 'Mensaje inválido.' }) });

export const chatsRoutes: FastifyPluginAsyncZod<ChatsRoutesOptions> = async (app, options) => {
  const { db } = options;

  app.get('/gupshup/settings', { schema: { response: { 200: providerSettingsResponse } } }, async (request) => {
    const { tenant, actor } = await requestScope(request);
    requireOwnerOrAdmin(actor);
    const account = await effectiveAccount(db, tenant, options.sandbox);
    return {
      appName: account.appName,
      sourceNumber: account.sourceNumber,
      webhookUrl: webhookUrlOf(options.publicUrl(), tenant.id, account.webhookSecret),
      sandbox: options.sandbox,
    };
  });

  app.put('/gupshup/settings', { schema: { body: providerSettingsRequest, response: { 200: providerSettingsResponse } } }, async (request) => {
    const { tenant, actor } = await requestScope(request);
    requireOwnerOrAdmin(actor);
    const saved = await updateProviderSettings(db, tenant, request.body);
    return {
      appName: saved.appName,
      sourceNumber: saved.sourceNumber,
      webhookUrl: webhookUrlOf(options.publicUrl(), tenant.id, saved.webhookSecret),
      sandbox: options.sandbox,
    };
  });

  app.get('/cards/:id/messages', { schema: { params: cardParams, querystring: timelineQuery, response: { 200: timelineResponse } } }, async (request) => {
    const author = await requestScope(request);
    const card = await visibleCard(db, author, request.params.id);
    const cursor = request.query.cursor ? decodeCursor(request.query.cursor) : undefined;
    if (request.query.cursor && !cursor) throw badRequest('Cursor inválido.');
    return cardTimeline(db, author.tenantId, card, { cursor, limit: request.query.limit });
  });

  app.post('/message', { schema: { body: sendTextRequest, response: { 201: messageResponse } } }, async (request, reply) =>
    reply.status(201).send(await sendText(options, await requestScope(request), request.body)),
  );

  app.post('/message/media', { schema: { response: { 201: messageResponse } } }, async (request, reply) => {
    const author = await requestScope(request);
    const { fields, file: upload } = await readMultipartUpload(request, {
      fileField: 'media',
      maxFileBytes: MAX_UPLOAD_BYTES,
      tooLarge: 'El archivo es demasiado grande.',
      fallbackName: 'archivo',
      missingMessage: 'Envía el archivo como multipart/form-data en el campo media.',
    });
    const parsed = sendMediaFields.safeParse(fields);
    if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
    if (!upload || upload.data.length === 0) throw badRequest('Falta el archivo (campo media).');

    const card = await writableCard(db, author, parsed.data.cardId);
    assertWindowOpenForFiles(card);
    const media = await checkUpload(upload.data, upload.fileName);
    const mediaUrl = await options.storage.save(author.tenantId, media.data, media.extension);
    const fileName = media.kind === 'audio' && media.mime === 'audio/ogg' && !upload.fileName.endsWith('.ogg') ? `voice-${Date.now()}.ogg` : upload.fileName;
    const message = await queueOutbound(
      options,
      { tenantId: author.tenantId, userId: author.actor.userId },
      card,
      {
        type: media.kind,
        text: parsed.data.caption?.trim() || null,
        mediaUrl,
        mediaMime: media.mime,
        mediaFileName: fileName,
      },
      { tempId: parsed.data.tempId, quotedMessageId: parsed.data.quotedMessageId },
    );
    return reply.status(201).send(toMessageDto(message));
  });

  app.post('/message/template', { schema: { body: sendTemplateRequest, response: { 201: messageResponse } } }, async (request, reply) =>
    reply.status(201).send(await sendTemplate(options, await requestScope(request), request.body)),
  );

  app.post(
    '/initiate-conversation',
    { schema: { body: initiateConversationRequest, response: { 201: initiateConversationResponse } } },
    async (request, reply) => reply.status(201).send(await initiateConversation(options, await requestScope(request), request.body)),
  );

  app.post('/message/schedule', { schema: { body: scheduleRequest, response: { 201: scheduledMessageResponse } } }, async (request, reply) =>
    reply.status(201).send(await scheduleMessage(options, await requestScope(request), request.body)),
  );

  app.post('/note', { schema: { body: noteRequest, response: { 201: noteResponse } } }, async (request, reply) =>
    reply.status(201).send(await addNote(options, await requestScope(request), request.body)),
  );

  app.post('/cards/:id/mark-read', { schema: { params: cardParams, response: { 200: cardSummaryResponse } } }, async (request) =>
    markRead(options, await requestScope(request), request.params.id),
  );

  app.post('/messages/:id/reaction', { schema: { params: messageParams, body: reactionRequest, response: { 200: messageResponse } } }, async (request) =>
    reactToMessage(options, await requestScope(request), request.params.id, request.body.emoji),
  );

  app.get('/usage', { schema: { response: { 200: usageResponse } } }, async (request) => monthUsage(db, sessionOf(request).tenant.id));
};
