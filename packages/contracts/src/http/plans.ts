import type { Plan } from './auth.ts';

/** Plan names as the app shows them, with the landing page's name beside (spec 01 §1, §3). */
export const planNames: Record<Plan, string> = {
  basic: 'Básico (Starter)',
  professional: 'Profesional (Pro)',
  enterprise: 'Empresarial (Enterprise)',
};

export type PlanFeature = 'ai_assistant' | 'automation_bot';

/** Landing page: Pro adds the AI assistant and the automation bot; Enterprise has everything. */
export const planFeatures: Record<Plan, readonly PlanFeature[]> = {
  basic: [],
  professional: ['ai_assistant', 'automation_bot'],
  enterprise: ['ai_assistant', 'automation_bot'],
};

export const planIncludes = (plan: Plan, feature: PlanFeature) => planFeatures[plan].includes(feature);

/** What a switch says, and the server answers, when the plan lacks the feature. */
export const PLAN_FEATURE_MISSING: Record<PlanFeature, (plan: Plan) => string> = {
  ai_assistant: (plan) => `El asistente de IA es una función del plan Pro. Tu plan ${planNames[plan]} no lo incluye.`,
  automation_bot: (plan) => `El bot de automatización es una función del plan Pro. Tu plan ${planNames[plan]} no lo incluye.`,
};
