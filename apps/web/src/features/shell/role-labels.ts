import type { Plan, Role } from '@embudo/contracts/http/auth';

/** Spec 01 §6. */
export const roleLabels: Record<Role, string> = {
  owner: 'Propietario',
  admin: 'Administrador',
  agent: 'Agente',
  viewer: 'Visualizador',
};

/** Spec 01 §3. */
export const planLabels: Record<Plan, string> = {
  basic: 'Básico',
  professional: 'Profesional',
  enterprise: 'Empresarial',
};

export function canManageTenant(role: Role) {
  return role === 'owner' || role === 'admin';
}
