import type { Db } from '../../platform/db/database.ts';
import { findCardByPhone } from '../funnels/index.ts';
import { activeConnectionOf } from '../tenants/index.ts';

/**
 * What the sandbox phone (messaging-providers/sandbox, which imports no module) reads from the CRM:
 * where a customer's chat sits, and what the company sends through on the fakes (its Gupshup app or its Meta number).
 */
export function sandboxPhoneCrm(db: Db) {
  return {
    customerFunnelId: async (tenantId: string, customerPhone: string) => (await findCardByPhone(db, tenantId, customerPhone))?.funnelId,
    sandboxAccount: (tenant: { id: string; slug: string }) => activeConnectionOf(db, tenant, true),
  };
}
