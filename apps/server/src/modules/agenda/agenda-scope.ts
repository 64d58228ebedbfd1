import type { Db } from '../../platform/db/database.ts';
import { requireOwnerOrAdmin, requireWriter, type Actor } from '../../platform/policy/policy.ts';

/** Who acts in which tenant, and the tenant's time zone, where every day of the agenda starts. */
export interface AgendaScope {
  db: Db;
  tenantId: string;
  timezone: string;
  actor: Actor;
}

/** Professionals, services and availability: owners and admins (a viewer hears that it only reads). */
export function requireCatalogManager(actor: Actor) {
  requireWriter(actor);
  requireOwnerOrAdmin(actor);
}
