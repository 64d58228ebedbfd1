import { z } from 'zod';
import { nodeLabel, nodeText } from '../node-fields.ts';

export const conditionOperators = ['contains', 'equals', 'not_equals', 'starts_with', 'greater_than', 'less_than'] as const;
export type ConditionOperator = (typeof conditionOperators)[number];

/** What the customer wrote last; a condition reads it unless told otherwise (spec 02 §9). */
export const USER_RESPONSE_VARIABLE = 'user_response';

/** A condition leaves by the edge whose sourceHandle is 'true' or 'false'. */
export const conditionHandles = ['true', 'false'] as const;

export const conditionData = z.object({
  label: nodeLabel,
  variable: nodeText('La variable', 100).default(USER_RESPONSE_VARIABLE),
  operator: z
    .enum(conditionOperators, { error: 'Operador inválido: usa contains, equals, not_equals, starts_with, greater_than o less_than.' })
    .default('contains'),
  value: nodeText('El valor', 500).default(''),
});
export type ConditionData = z.infer<typeof conditionData>;

export const conditionDefaults: ConditionData = { label: 'Condición', variable: USER_RESPONSE_VARIABLE, operator: 'contains', value: '' };
