import { PLAN_FEATURE_MISSING, planIncludes } from '@embudo/contracts/http/plans';
import { canManageTenant } from '../shell/role-labels.ts';
import { useSession } from './use-session.ts';

export interface Permissions {
  /** Agents, admins and owners change chats, cards and columns; viewers only read. */
  canWrite: boolean;
  /** Owners and admins: funnels, team, bots, templates, provider and bot settings. */
  canManage: boolean;
  /** Why the AI switches are off for this plan, or null when the plan includes the assistant. */
  aiUnavailableReason: string | null;
}

/** The UI's mirror of the server's policy (which always has the last word). */
export function usePermissions(): Permissions {
  const { session } = useSession();
  const role = session?.user.role ?? 'viewer';
  const plan = session?.tenant.subscription_plan ?? 'basic';
  return {
    canWrite: role !== 'viewer',
    canManage: canManageTenant(role),
    aiUnavailableReason: planIncludes(plan, 'ai_assistant') ? null : PLAN_FEATURE_MISSING.ai_assistant(plan),
  };
}
