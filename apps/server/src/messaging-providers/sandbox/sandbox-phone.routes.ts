import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fileTypeFromBuffer } from 'file-type';
import {
  sandboxAppResponse,
  sandboxChangeRequest,
  sandboxChangeResponse,
  sandboxConversationQuery,
  sandboxConversationResponse,
  sandboxSendRequest,
  sandboxSendResponse,
} from '@embudo/contracts/http/sandbox-phone';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import { actorOfRequest, sessionOf } from '../../platform/http/route-access.ts';
import { canSeeFunnel, requireSandboxPhoneUser } from '../../platform/policy/policy.ts';
import { fakeGupshupRoutes, type CustomerMessage, type FakeGupshup } from './fake-gupshup.ts';
import { fakeMetaCloudRoutes, type FakeMetaCloud } from './fake-meta-cloud.ts';
import { changeProblem } from './customer-change.ts';

export const FAKE_GUPSHUP_PREFIX = '/sandbox-gupshup';
export const FAKE_META_PREFIX = '/sandbox-meta';
export const META_SANDBOX_NO_GROUPS = 'La API de WhatsApp Cloud de Meta no tiene grupos: prueba los grupos con Gupshup.';

/** The company's connection on the fakes: its Gupshup app, or its Meta number. */
export type SandboxConnection =
  { provider: 'gupshup'; appName: string | null; sourceNumber: string | null } | { provider: 'meta'; phoneNumberId: string | null; sourceNumber: string };
export const CUSTOMER_NOT_VISIBLE = 'No encontrado.';
export const PHONE_MESSAGE_NOT_FOUND = 'Ese mensaje no está en esta conversación.';

/** What the phone needs from the CRM, passed in by the composition root (providers import no module). */
export interface SandboxPhoneCrm {
  /** The funnel of the company's chat with this customer, if there is one. */
  customerFunnelId(tenantId: string, customerPhone: string): Promise<string | undefined>;
  /** What the company sends through on the fakes (its sandbox Gupshup app when nothing is configured). */
  sandboxAccount(tenant: { id: string; slug: string }): Promise<SandboxConnection>;
}

/**
 * The signed-in member's company on the sandbox: its Gupshup app on the fake. An agent plays only
 * customers whose chat sits in a funnel they see (or who have no chat yet), so the phone shows no
 * more than the board does; another company's app is never reachable, whatever the request names.
 */
async function sandboxCompanyOf(crm: SandboxPhoneCrm, request: FastifyRequest, customerPhone?: string) {
  const session = sessionOf(request);
  const actor = await actorOfRequest(request);
  requireSandboxPhoneUser(actor);
  if (customerPhone) {
    const funnelId = await crm.customerFunnelId(session.tenant.id, customerPhone);
    if (funnelId && !canSeeFunnel(actor, funnelId)) throw notFound(CUSTOMER_NOT_VISIBLE);
  }
  const account = await crm.sandboxAccount(session.tenant);
  if (account.provider === 'meta') {
    const phoneNumberId = account.phoneNumberId ?? '';
    return { provider: 'meta' as const, appName: `Meta ${phoneNumberId}`, phoneNumberId, sourceNumber: account.sourceNumber, label: session.tenant.name };
  }
  return { provider: 'gupshup' as const, appName: account.appName!, sourceNumber: account.sourceNumber!, label: session.tenant.name };
}

/**
 * The sandbox phone's backend and the fakes' endpoints (Gupshup's and Meta's), mounted only in sandbox mode: a
 * signed-in member plays a customer of their own company through the provider it sends with, and everything
 * travels the real webhook path.
 */
export function sandboxRoutes({ fake, meta, crm }: { fake: FakeGupshup; meta: FakeMetaCloud; crm: SandboxPhoneCrm }): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fakeGupshupRoutes(fake), { prefix: FAKE_GUPSHUP_PREFIX });
    await app.register(fakeMetaCloudRoutes(meta), { prefix: FAKE_META_PREFIX });

    app.get('/sandbox/api/app', { schema: { response: { 200: sandboxAppResponse } } }, async (request) => {
      const { provider, appName, sourceNumber, label } = await sandboxCompanyOf(crm, request);
      return { provider, appName, sourceNumber, label };
    });

    app.get('/sandbox/api/conversation', { schema: { response: { 200: sandboxConversationResponse } } }, async (request) => {
      const query = sandboxConversationQuery.safeParse(request.query);
      if (!query.success) throw badRequest('Falta el teléfono del cliente (solo dígitos, con código de país).');
      const company = await sandboxCompanyOf(crm, request, query.data.phone);
      if (company.provider === 'meta') return { messages: await meta.conversation(company.phoneNumberId, query.data.phone) };
      return { messages: await fake.conversation(company.appName, query.data.phone) };
    });

    app.post('/sandbox/api/send', { bodyLimit: 25 * 1024 * 1024, schema: { response: { 201: sandboxSendResponse } } }, async (request, reply) => {
      const parsed = sandboxSendRequest.safeParse(request.body);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
      const { message, ...who } = parsed.data;
      const company = await sandboxCompanyOf(crm, request, who.group?.id ?? who.phone);
      if (company.provider === 'meta' && who.group) throw badRequest(META_SANDBOX_NO_GROUPS);
      const sender = { ...who, appName: company.appName };
      let customer: CustomerMessage;
      if (message.kind === 'media') {
        const data = Buffer.from(message.dataBase64, 'base64');
        const detected = await fileTypeFromBuffer(data);
        const contentType = detected?.mime ?? 'application/octet-stream';
        // Gupshup hands the business a file URL, Meta a media id.
        const url =
          company.provider === 'meta' ? await meta.storeFile(data, contentType, message.fileName) : await fake.storeFile(data, contentType, message.fileName);
        const kind = contentType.startsWith('image/webp')
          ? 'sticker'
          : contentType.startsWith('image/')
            ? 'image'
            : contentType.startsWith('video/') && !message.voice
              ? 'video'
              : contentType.startsWith('audio/') || message.voice
                ? 'audio'
                : 'file';
        customer = {
          ...sender,
          kind,
          url,
          contentType: message.voice ? 'audio/ogg; codecs=opus' : contentType,
          caption: message.caption,
          fileName: kind === 'file' ? message.fileName : undefined,
        };
      } else if (message.kind === 'location') {
        // The place's name is the location's, never the writer's: in a group the participant keeps their name.
        const { name: placeName, ...place } = message;
        customer = { ...sender, ...place, placeName };
      } else {
        customer = { ...sender, ...message };
      }
      if (company.provider === 'meta') {
        const { appName: _appName, ...rest } = customer;
        return reply.status(201).send(await meta.customerSends({ ...rest, phoneNumberId: company.phoneNumberId }));
      }
      return reply.status(201).send(await fake.customerSends(customer));
    });

    app.post('/sandbox/api/change', { schema: { response: { 200: sandboxChangeResponse } } }, async (request) => {
      const parsed = sandboxChangeRequest.safeParse(request.body);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
      const { change, ...who } = parsed.data;
      const conversation = who.group?.id ?? who.phone;
      const company = await sandboxCompanyOf(crm, request, conversation);
      if (company.provider === 'meta' && who.group) throw badRequest(META_SANDBOX_NO_GROUPS);
      const target =
        company.provider === 'meta'
          ? await meta.conversationMessage(company.phoneNumberId, conversation, change.messageId)
          : await fake.conversationMessage(company.appName, conversation, change.messageId);
      if (!target) throw notFound(PHONE_MESSAGE_NOT_FOUND);
      const problem = changeProblem(target, change, who);
      if (problem) throw badRequest(problem);
      if (company.provider === 'meta') {
        const { group: _group, ...customer } = who;
        return { message: await meta.customerChanges({ ...customer, phoneNumberId: company.phoneNumberId, target, change }) };
      }
      return { message: await fake.customerChanges({ ...who, appName: company.appName, target, change }) };
    });
  };
}
