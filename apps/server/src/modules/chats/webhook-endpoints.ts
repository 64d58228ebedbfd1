import type { Db } from '../../platform/db/database.ts';
import type { ProviderName, WebhookReceiver, WhatsAppLines } from '../../messaging-providers/provider.ts';
import { findTenantById, providerSettingsOf, type TenantRow } from '../tenants/index.ts';

/** How long a company's webhook settings are trusted in one process before they are read again. */
export const WEBHOOK_SETTINGS_TTL_MS = 5_000;
/** Companies whose webhook settings one process keeps at once. */
const KEPT = 10_000;

/** What the webhook checks and reads a delivery with: the company, its URL secret, and each provider's reader. */
export interface WebhookEndpoint {
  tenant: TenantRow;
  webhookSecret: string;
  receiver(provider: ProviderName): Promise<WebhookReceiver>;
}

/**
 * Every delivery would read the company, its provider settings and its provider's reader again (three statements
 * before the one that stores it), so they are kept a few seconds per process (docs/decisions/0015): a secret or app
 * secret changed in the WhatsApp connection dialog takes up to that long to reach a process that read the old one.
 */
export class WebhookEndpoints {
  private readonly kept = new Map<string, { until: number; endpoint: Promise<WebhookEndpoint | undefined> }>();

  constructor(
    private readonly db: Db,
    private readonly lines: WhatsAppLines,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  of(tenantId: string): Promise<WebhookEndpoint | undefined> {
    if (!/^[0-9a-f-]{36}$/.test(tenantId)) return Promise.resolve(undefined);
    const now = this.clock().getTime();
    const hit = this.kept.get(tenantId);
    if (hit && hit.until > now) return hit.endpoint;
    const endpoint = this.load(tenantId);
    this.kept.delete(tenantId);
    if (this.kept.size >= KEPT) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(tenantId, { until: now + WEBHOOK_SETTINGS_TTL_MS, endpoint });
    // An unknown company is not kept (it may be created the next moment), nor is a failed read.
    endpoint.then(
      (found) => found ?? this.kept.delete(tenantId),
      () => this.kept.delete(tenantId),
    );
    return endpoint;
  }

  private async load(tenantId: string): Promise<WebhookEndpoint | undefined> {
    const tenant = await findTenantById(this.db, tenantId);
    if (!tenant) return undefined;
    const settings = await providerSettingsOf(this.db, tenant.id);
    const receivers = new Map<ProviderName, Promise<WebhookReceiver>>();
    return {
      tenant,
      webhookSecret: settings.webhookSecret,
      receiver: (provider) => {
        if (!receivers.has(provider)) receivers.set(provider, this.lines.webhook(tenant, provider));
        return receivers.get(provider)!;
      },
    };
  }
}
