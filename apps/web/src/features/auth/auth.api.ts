import type { ChangePasswordResponse, CheckSlugResponse, LoginRequest, MeResponse, RegisterRequest, SessionResponse } from '@embudo/contracts/http/auth';
import { api } from '../../shared/api-client/api-client.ts';

export const authApi = {
  login: (payload: LoginRequest) => api.post<SessionResponse>('/api/auth/login', payload),
  register: (payload: RegisterRequest) => api.post<SessionResponse>('/api/auth/register', payload),
  logout: () => api.post<void>('/api/auth/logout'),
  me: () => api.get<MeResponse>('/api/auth/me'),
  changePassword: (newPassword: string) => api.put<ChangePasswordResponse>('/api/auth/change-password', { newPassword }),
  checkSlug: (slug: string, signal?: AbortSignal) => api.get<CheckSlugResponse>(`/api/tenants/check-slug/${encodeURIComponent(slug)}`, { signal }),
};
