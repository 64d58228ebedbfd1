import type { Role } from '@embudo/contracts/http/auth';
import { forbidden, notFound } from '../errors/app-error.ts';

/** The one place that says what a role may do; routes and services ask here, the UI mirrors it. */
export interface Actor {
  userId: string;
  role: Role;
  /** Funnels an agent or viewer was given; owners and admins see every funnel. */
  funnelIds: readonly string[];
}

export const VIEWER_READ_ONLY = 'Tu rol de Visualizador solo permite consultar, no hacer cambios.';
export const OWNER_OR_ADMIN_ONLY = 'Solo el propietario o un administrador pueden realizar esta acción.';
export const OWNER_ONLY = 'Solo el propietario de la empresa puede realizar esta acción.';

export const seesAllFunnels = (actor: Actor) => actor.role === 'owner' || actor.role === 'admin';

export function requireOwnerOrAdmin(actor: Actor) {
  if (!seesAllFunnels(actor)) throw forbidden(OWNER_OR_ADMIN_ONLY);
}

export function requireOwner(actor: Actor) {
  requireWriter(actor);
  if (actor.role !== 'owner') throw forbidden(OWNER_ONLY);
}

export function requireWriter(actor: Actor) {
  if (actor.role === 'viewer') throw forbidden(VIEWER_READ_ONLY);
}

export function canSeeFunnel(actor: Actor, funnelId: string) {
  return seesAllFunnels(actor) || actor.funnelIds.includes(funnelId);
}

/** A funnel the actor may not see answers exactly like a missing one. */
export function requireFunnelVisible(actor: Actor, funnelId: string, message = 'No encontrado.') {
  if (!canSeeFunnel(actor, funnelId)) throw notFound(message);
}
