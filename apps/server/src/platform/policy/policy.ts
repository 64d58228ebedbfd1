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

/** Owners and admins: every funnel, the team, bot and provider settings, templates and bots. */
export const isOwnerOrAdmin = (role: Role) => role === 'owner' || role === 'admin';

export const seesAllFunnels = (actor: Pick<Actor, 'role'>) => isOwnerOrAdmin(actor.role);

export function requireOwnerOrAdmin(actor: Pick<Actor, 'role'>, message = OWNER_OR_ADMIN_ONLY) {
  if (!isOwnerOrAdmin(actor.role)) throw forbidden(message);
}

export function requireOwner(actor: Pick<Actor, 'role'>) {
  requireWriter(actor);
  if (actor.role !== 'owner') throw forbidden(OWNER_ONLY);
}

/** Viewers read what they may see and change nothing. */
export function requireWriter(actor: Pick<Actor, 'role'>) {
  if (actor.role === 'viewer') throw forbidden(VIEWER_READ_ONLY);
}

export const SANDBOX_PHONE_NOT_FOR_VIEWERS = 'El teléfono de prueba escribe como cliente en los chats de la empresa: tu rol de Visualizador no puede usarlo.';

/**
 * The sandbox phone plays the company's customers and so writes into its chats: owners, admins and
 * agents may use it (agents only for customers whose chat they may see); a viewer changes nothing.
 */
export function requireSandboxPhoneUser(actor: Pick<Actor, 'role'>) {
  if (actor.role === 'viewer') throw forbidden(SANDBOX_PHONE_NOT_FOR_VIEWERS);
}

export function canSeeFunnel(actor: Actor, funnelId: string) {
  return seesAllFunnels(actor) || actor.funnelIds.includes(funnelId);
}

/** A funnel the actor may not see answers exactly like a missing one. */
export function requireFunnelVisible(actor: Actor, funnelId: string, message = 'No encontrado.') {
  if (!canSeeFunnel(actor, funnelId)) throw notFound(message);
}

/** Anyone may change their own name; changing another member is for owners and admins. */
export function requireMayEditUser(actor: Pick<Actor, 'role' | 'userId'>, targetUserId: string, onlyProfileFields: boolean) {
  if (actor.userId === targetUserId && onlyProfileFields) return;
  if (actor.userId !== targetUserId && !isOwnerOrAdmin(actor.role)) throw forbidden();
  requireOwnerOrAdmin(actor);
}
