import type { Db } from '../../platform/db/database.ts';
import { findCardByPhone } from '../funnels/index.ts';
import { effectiveAccount } from '../tenants/index.ts';

/**
 * What the sandbox phone (messaging-providers/sandbox, which imports no module) reads from the CRM:
 * where a customer's chat sits, and the company's app on the fake.
 */
export function sandboxPhoneCrm(db: Db) {
  return {
    customerFunnelId: async (tenantId: string, customerPhone: string) => (await findCardByPhone(db, tenantId, customerPhone))?.funnelId,
    sandboxAccount: (tenant: { id: string; slug: string }) => effectiveAccount(db, tenant, true),
  };
}
