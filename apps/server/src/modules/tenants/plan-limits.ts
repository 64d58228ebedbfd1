import type { Plan } from '@embudo/contracts/http/auth';
import { PLAN_FEATURE_MISSING, planFeatures, planNames, type PlanFeature } from '@embudo/contracts/http/plans';
import { forbidden } from '../../platform/errors/app-error.ts';

/** Landing-page plans: Starter (basic) 2 members, Pro (professional) 10, Enterprise unlimited. */
export const memberLimitByPlan: Record<Plan, number> = { basic: 2, professional: 10, enterprise: Number.POSITIVE_INFINITY };

export function memberLimitMessage(plan: Plan) {
  return `Tu plan ${planNames[plan]} permite hasta ${memberLimitByPlan[plan]} miembros activos. Mejora tu plan para invitar o activar a más usuarios.`;
}

/** Refuses adding one more active member past the plan's limit. */
export function requireMemberSeat(plan: Plan, activeMembers: number) {
  if (activeMembers >= memberLimitByPlan[plan]) throw forbidden(memberLimitMessage(plan));
}

/** AI assistant and automation bot are Pro features (landing page); switching them on needs the plan. */
export function requirePlanFeature(plan: Plan, feature: PlanFeature) {
  if (!planFeatures[plan].includes(feature)) throw forbidden(PLAN_FEATURE_MISSING[feature](plan));
}
