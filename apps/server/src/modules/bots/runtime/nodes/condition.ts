import type { ConditionOperator } from '@embudo/contracts/flows/nodes/condition';
import { variableName } from '../interpolate.ts';
import { next, type NodeExecutor } from '../node-executor.ts';

const number = (text: string) => {
  const parsed = Number(text.trim().replace(',', '.'));
  return text.trim() !== '' && Number.isFinite(parsed) ? parsed : undefined;
};

/** Text comparisons ignore case and surrounding spaces; greater/less compare numbers (a non-number is false). */
export function conditionHolds(actual: string, operator: ConditionOperator, expected: string): boolean {
  const a = actual.trim().toLowerCase();
  const b = expected.trim().toLowerCase();
  switch (operator) {
    case 'contains':
      return a.includes(b);
    case 'equals':
      return a === b;
    case 'not_equals':
      return a !== b;
    case 'starts_with':
      return a.startsWith(b);
    case 'greater_than':
    case 'less_than': {
      const left = number(actual);
      const right = number(expected);
      if (left === undefined || right === undefined) return false;
      return operator === 'greater_than' ? left > right : left < right;
    }
  }
}

/** Leaves by the 'true' or the 'false' handle. */
export const condition: NodeExecutor<'condition'> = {
  async run(data, ctx) {
    const actual = ctx.variables[variableName(data.variable)] ?? '';
    return next(conditionHolds(actual, data.operator, ctx.interpolate(data.value)) ? 'true' : 'false');
  },
};
