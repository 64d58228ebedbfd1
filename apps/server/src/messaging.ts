/**
 * The composition root of messaging (docs/decisions/0014): builds the provider adapters (Gupshup and, in sandbox
 * mode, their in-process fakes), and resolves each company's WhatsApp line from its saved connection. Modules get
 * only `WhatsAppLines`, the port; nothing outside this file, app.ts and main.ts picks an adapter.
 */
import type { FastifyInstance } from 'fastify';
import type { Db } from './platform/db/database.ts';
import type { Logger } from './platform/logger/logger.ts';
import type { SecretBox } from './platform/crypto/secret-box.ts';
import { lineOf, type MessagingProviders, type WhatsAppLines } from './messaging-providers/provider.ts';
import { createGupshupProvider } from './messaging-providers/gupshup/gupshup.provider.ts';
import { createGupshupMediaDownloader } from './messaging-providers/gupshup/gupshup-media.ts';
import { createGupshupPartnerClient, partnerCredentialsFrom, sandboxPartnerCredentials } from './messaging-providers/gupshup/gupshup-partner.client.ts';
import { createMetaCloudProvider } from './messaging-providers/meta-cloud/meta-cloud.provider.ts';
import { createMetaMediaFetcher } from './messaging-providers/meta-cloud/meta-media.ts';
import { sandboxMediaDownloader, sandboxMetaMediaFetcher } from './messaging-providers/sandbox/sandbox-media.ts';
import { FakeGupshup, type FakeApp } from './messaging-providers/sandbox/fake-gupshup.ts';
import { FakeMetaCloud } from './messaging-providers/sandbox/fake-meta-cloud.ts';
import { FAKE_GUPSHUP_PREFIX, FAKE_META_PREFIX, sandboxRoutes } from './messaging-providers/sandbox/sandbox-phone.routes.ts';
import { createDatabaseConversationStore } from './messaging-providers/sandbox/conversation-store.ts';
import { createDatabaseFakeStateStore } from './messaging-providers/sandbox/fake-state-store.ts';
import { SharedReads } from './platform/db/shared-reads.ts';
import { gupshupCredentials } from './modules/admin/index.ts';
import { sandboxPhoneCrm } from './modules/chats/index.ts';
import type { SandboxTemplateReviewer } from './modules/templates/index.ts';
import {
  activeConnectionOf,
  allSandboxApps,
  sandboxAppNamed,
  allSandboxMetaNumbers,
  metaAccountFrom,
  sandboxApiKey,
  savedAccountById,
  savedAccount,
  webhookAccount,
  type ConnectionOptions,
} from './modules/tenants/index.ts';

export interface MessagingOptions {
  db: Db;
  logger: Logger;
  box: SecretBox;
  /** APP_SECRET: the sandbox derives the keys its fakes issue from it. */
  appSecret: string;
  sandbox: boolean;
  /** The wait between a message's statuses from the fakes (their default when unset). */
  sandboxStatusStepMs?: number;
  gupshupApiUrl?: string;
  gupshupPartnerUrl?: string;
  /** Meta's Graph API (META_GRAPH_URL) and version (META_GRAPH_VERSION). */
  metaGraphUrl?: string;
  metaGraphVersion?: string;
  allowPrivateOutbound?: boolean;
}

export interface Messaging {
  lines: WhatsAppLines;
  /** Sandbox mode: the fakes behind the sandbox phone (tests drive them). */
  fakeGupshup?: FakeGupshup;
  fakeMeta?: FakeMetaCloud;
  /** Sandbox mode: the operator's template approval is the fake provider's review too. */
  sandboxReviewer?: SandboxTemplateReviewer;
}

/** The in-process sandbox answers on this very server, whatever port it got. */
export function internalUrl(app: FastifyInstance) {
  const address = app.server.address();
  return typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : 'http://127.0.0.1:3000';
}

/**
 * The partner account the platform signs in to Gupshup's partner API with: the operator's saved credentials, or in
 * sandbox mode, when none are saved, an account derived from APP_SECRET (only this process knows its password).
 */
function operatorPartnerCredentials(options: MessagingOptions) {
  return async () =>
    partnerCredentialsFrom(await gupshupCredentials(options.db, options.box), options.sandbox ? sandboxPartnerCredentials(options.appSecret) : undefined);
}

export async function setUpMessaging(app: FastifyInstance, options: MessagingOptions): Promise<Messaging> {
  const { db, box, sandbox } = options;
  const fakes = sandbox ? await registerSandboxPhone(app, options) : undefined;
  const fakeGupshup = fakes?.gupshup;
  const fakeMeta = fakes?.meta;
  const fakeGupshupUrl = () => `${internalUrl(app)}${FAKE_GUPSHUP_PREFIX}`;
  const fakeMetaUrl = () => `${internalUrl(app)}${FAKE_META_PREFIX}`;

  // Gupshup's partner API serves templates, template media and read receipts with the operator's credentials.
  const partner = createGupshupPartnerClient({
    baseUrl: sandbox ? fakeGupshupUrl : (options.gupshupPartnerUrl ?? 'https://partner.gupshup.io'),
    credentials: operatorPartnerCredentials(options),
  });
  const providers: MessagingProviders = {
    gupshup: createGupshupProvider({
      apiUrl: sandbox ? fakeGupshupUrl : (options.gupshupApiUrl ?? 'https://api.gupshup.io'),
      partner,
      downloadMedia: fakeGupshup
        ? sandboxMediaDownloader(fakeGupshup)
        : createGupshupMediaDownloader({ allowPrivateNetworks: options.allowPrivateOutbound ?? false }),
    }),
    meta: createMetaCloudProvider({
      graphUrl: fakeMeta ? fakeMetaUrl : (options.metaGraphUrl ?? 'https://graph.facebook.com'),
      version: options.metaGraphVersion ?? 'v25.0',
      fetchMedia: fakeMeta
        ? sandboxMetaMediaFetcher(fakeMeta, fakeMetaUrl)
        : createMetaMediaFetcher({ allowPrivateNetworks: options.allowPrivateOutbound ?? false }),
    }),
  };

  const connection: ConnectionOptions = {
    sandbox,
    box,
    // Live sends use the operator's Gupshup API key (platform settings); sandbox sends the key the fake issued the app.
    gupshupApiKey: async (appName) => (sandbox ? sandboxApiKey(options.appSecret, appName) : ((await gupshupCredentials(db, box)).apiKey ?? '')),
  };
  const lines: WhatsAppLines = {
    active: async (tenant) => {
      const account = await savedAccount(db, tenant, connection);
      return account && lineOf(providers, account);
    },
    activeOf: async (tenantId) => {
      const account = await savedAccountById(db, tenantId, connection);
      return account && lineOf(providers, account);
    },
    of: async (tenant, provider) => {
      const account = await savedAccount(db, tenant, connection, provider);
      return account && lineOf(providers, account);
    },
    webhook: async (tenant, provider) => lineOf(providers, await webhookAccount(db, tenant, box, provider)).webhook,
    candidate: async (tenant, settings) =>
      lineOf(
        providers,
        settings.provider === 'meta'
          ? await metaAccountFrom(db, box, tenant.id, settings)
          : { ...settings, apiKey: await connection.gupshupApiKey(settings.appName) },
      ),
  };

  const sandboxReviewer: SandboxTemplateReviewer | undefined = fakes && {
    approve: async (tenant, providerTemplateId) => {
      const active = await activeConnectionOf(db, tenant, true);
      if (active.provider === 'gupshup') return Boolean(active.appName) && fakes.gupshup.approveTemplate(active.appName!, providerTemplateId);
      const account = await savedAccount(db, tenant, connection, 'meta');
      return account?.provider === 'meta' && fakes.meta.approveTemplate(account.wabaId, providerTemplateId);
    },
  };
  return { lines, fakeGupshup, fakeMeta, sandboxReviewer };
}

/**
 * Sandbox mode: the fake Gupshup and the fake Cloud API, and the sandbox phone, which plays a customer of whichever
 * the company sends through (its CRM view comes from the chats module). The fake Meta plays Meta for every number a
 * company saved, with the token and app secret it saved.
 */
async function registerSandboxPhone(app: FastifyInstance, options: MessagingOptions) {
  const { db } = options;
  const store = createDatabaseConversationStore(db);
  // Templates and the statuses still owed survive a restart: read back before anything is served.
  const state = createDatabaseFakeStateStore(db);
  const partnerCredentials = operatorPartnerCredentials(options);
  // A campaign's sends ask for their app at once: those arriving while a read runs share the next one, never an older one.
  const appReads = new SharedReads<FakeApp | undefined>({ gapFactor: 0 });
  const gupshup = new FakeGupshup({
    apps: () => allSandboxApps(db, internalUrl(app), options.appSecret),
    app: (appName) => appReads.read(appName, () => sandboxAppNamed(db, internalUrl(app), options.appSecret, appName)),
    publicUrl: () => `${internalUrl(app)}${FAKE_GUPSHUP_PREFIX}`,
    log: options.logger,
    store,
    state,
    ...(options.sandboxStatusStepMs !== undefined ? { statusStepMs: options.sandboxStatusStepMs } : {}),
    // The platform's partner account owns every company's app; a token it issues for one app serves only that app.
    partners: async () => [await partnerCredentials()],
  });
  const meta = new FakeMetaCloud({
    numbers: () => allSandboxMetaNumbers(db, options.box, internalUrl(app)),
    publicUrl: () => `${internalUrl(app)}${FAKE_META_PREFIX}`,
    log: options.logger,
    store,
    state,
    ...(options.sandboxStatusStepMs !== undefined ? { statusStepMs: options.sandboxStatusStepMs } : {}),
  });
  // What an earlier run kept is read before anything is served. A database that does not answer yet must not stop the
  // start (readiness reports it): the fakes then start empty, and say so.
  app.addHook('onReady', async () => {
    try {
      await gupshup.load();
      await meta.load();
    } catch (error) {
      options.logger.warn({ err: error }, 'sandbox fakes could not read the templates they kept; they start without them');
    }
  });
  // Callbacks go to this very server: what an earlier run left under way resumes once it listens.
  app.addHook('onListen', async () => {
    await gupshup.resume();
    await meta.resume();
  });
  app.addHook('onClose', async () => {
    gupshup.close();
    meta.close();
    await store.flush();
  });
  await app.register(sandboxRoutes({ fake: gupshup, meta, crm: sandboxPhoneCrm(db) }));
  return { gupshup, meta };
}
