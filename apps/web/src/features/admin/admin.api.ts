import type { Plan } from '@embudo/contracts/http/auth';
import type {
  AdminSession,
  AdminStats,
  AdminTenant,
  AdminUser,
  GupshupCredentialsInput,
  GupshupSettings,
  Pricing,
  SendRate,
} from '@embudo/contracts/http/admin';
import type { AdminTemplateDto } from '@embudo/contracts/http/templates';
import { api, UNKNOWN_ERROR_MESSAGE } from '../../shared/api-client/api-client.ts';
import { ApiError } from '../../shared/api-client/api-error.ts';

export type { AdminSession, AdminStats, AdminTenant, AdminTenantUser, AdminUser, GupshupSettings, Pricing } from '@embudo/contracts/http/admin';
export type { TemplateStatus } from '@embudo/contracts/http/templates';
export type AdminTemplate = AdminTemplateDto;
export type GupshupSettingsInput = GupshupCredentialsInput;

/**
 * The operator sign-in answers 401 for wrong credentials. That is a form error, not an expired session, so it
 * bypasses the shared client (whose 401 handling would clear storage and redirect before the form could answer).
 */
async function login(payload: { email: string; password: string }): Promise<AdminSession> {
  let response: Response;
  try {
    response = await fetch('/api/auth/admin/login', {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
  } catch {
    throw new ApiError(0, UNKNOWN_ERROR_MESSAGE);
  }
  const body: unknown = await response.json().catch(() => undefined);
  const record = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  if (!response.ok) {
    const serverMessage = typeof record.message === 'string' ? record.message : undefined;
    throw new ApiError(response.status, serverMessage ?? UNKNOWN_ERROR_MESSAGE, {
      serverMessage,
      code: typeof record.code === 'string' ? record.code : undefined,
    });
  }
  if (typeof record.token !== 'string' || !record.user || typeof record.user !== 'object') throw new ApiError(response.status, UNKNOWN_ERROR_MESSAGE);
  return record as unknown as AdminSession;
}

/** Calls of spec 02 §7 Admin. Every path is under /api/admin (or the admin sign-in), so the admin token goes along. */
export const adminApi = {
  login,
  me: () => api.get<{ user: AdminUser }>('/api/admin/me'),
  logout: () => api.post<void>('/api/admin/logout'),
  stats: () => api.get<AdminStats>('/api/admin/stats'),
  tenants: () => api.get<AdminTenant[]>('/api/admin/tenants'),
  setPlan: (tenantId: string, plan: Plan) => api.put(`/api/admin/tenants/${encodeURIComponent(tenantId)}/plan`, { subscription_plan: plan }),
  /** Issue 16: the company's WhatsApp number's send rate. */
  setSendRate: (tenantId: string, messagesPerSecond: number) =>
    api.put<SendRate>(`/api/admin/tenants/${encodeURIComponent(tenantId)}/send-rate`, { messagesPerSecond }),
  setUserStatus: (userId: string, isActive: boolean) => api.put(`/api/admin/users/${encodeURIComponent(userId)}/status`, { is_active: isActive }),
  resetPassword: (userId: string) => api.post<{ tempPassword: string }>(`/api/admin/users/${encodeURIComponent(userId)}/reset-password`),
  templates: () => api.get<AdminTemplate[]>('/api/admin/templates/all'),
  setTemplateStatus: (templateId: string, status: 'APPROVED' | 'REJECTED', reason?: string) =>
    api.put(`/api/admin/templates/${encodeURIComponent(templateId)}/status`, reason ? { status, reason } : { status }),
  pricing: () => api.get<Pricing>('/api/admin/settings/pricing'),
  savePricing: (pricing: Pricing) => api.put<Pricing>('/api/admin/settings/pricing', pricing),
  gupshup: () => api.get<GupshupSettings>('/api/admin/settings/gupshup'),
  saveGupshup: (settings: GupshupSettingsInput) => api.put<GupshupSettings>('/api/admin/settings/gupshup', settings),
};

export const adminKeys = {
  all: ['admin'] as const,
  me: (token: string | null) => ['admin', 'me', token] as const,
  stats: ['admin', 'stats'] as const,
  tenants: ['admin', 'tenants'] as const,
  templates: ['admin', 'templates'] as const,
  pricing: ['admin', 'settings', 'pricing'] as const,
  gupshup: ['admin', 'settings', 'gupshup'] as const,
};

/** Spec 02 §9 plans with their Spanish labels. */
export const planOptions: ReadonlyArray<{ value: Plan; label: string }> = [
  { value: 'basic', label: 'Básico' },
  { value: 'professional', label: 'Profesional' },
  { value: 'enterprise', label: 'Empresarial' },
];
