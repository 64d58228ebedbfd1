import { passwordRules, PASSWORDS_DONT_MATCH } from '@embudo/contracts/http/auth';

/**
 * The first problem with a forced password change, checked in the order of spec 01 §5:
 * length, uppercase, lowercase, digit, then the confirmation.
 */
export function forcedPasswordProblem(password: string, confirmation: string): string | null {
  const broken = passwordRules.find((rule) => !rule.test(password));
  if (broken) return broken.message;
  if (password !== confirmation) return PASSWORDS_DONT_MATCH;
  return null;
}
