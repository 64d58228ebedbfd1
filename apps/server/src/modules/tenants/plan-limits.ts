import type { Plan } from '@embudo/contracts/http/auth';

/** Landing-page plans: Starter (basic) 2 members, Pro (professional) 10, Enterprise unlimited. */
export const memberLimitByPlan: Record<Plan, number> = { basic: 2, professional: 10, enterprise: Number.POSITIVE_INFINITY };
export const planLabel: Record<Plan, string> = { basic: 'Básico', professional: 'Profesional', enterprise: 'Empresarial' };

export function memberLimitMessage(plan: Plan) {
  return `Tu plan ${planLabel[plan]} permite hasta ${memberLimitByPlan[plan]} miembros. Mejora tu plan para invitar a más usuarios.`;
}
