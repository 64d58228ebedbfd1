import type { SessionUser } from '@embudo/contracts/http/auth';
import type { Funnel } from '@embudo/contracts/http/funnels';
import type { InviteUserRequest, TempPasswordResponse, UpdateUserRequest, UserWithTempPassword } from '@embudo/contracts/http/users';
import { api } from '../../shared/api-client/api-client.ts';

export type FunnelOption = Pick<Funnel, 'id' | 'name'>;

const userPath = (userId: string) => `/api/users/${encodeURIComponent(userId)}`;

/** Spec 01 §7 Users. */
export const teamApi = {
  list: () => api.get<SessionUser[]>('/api/users'),
  invite: (input: InviteUserRequest) => api.post<UserWithTempPassword>('/api/users/invite', input),
  update: (userId: string, input: UpdateUserRequest) => api.put<SessionUser>(userPath(userId), input),
  setActive: (userId: string, isActive: boolean) => api.put<SessionUser>(userPath(userId), { is_active: isActive } satisfies UpdateUserRequest),
  resetPassword: (userId: string) => api.post<TempPasswordResponse>(`${userPath(userId)}/reset-password`),
  funnels: () => api.get<FunnelOption[]>('/api/funnels/summary'),
};
