import type { RetryJobResponse, SilentCompany, WhatsappActivity } from '@embudo/contracts/http/whatsapp-activity';
import { api } from '../../shared/api-client/api-client.ts';

export type {
  ActivityHour,
  FailedJob,
  FailedSend,
  NumberHealth,
  RefusedDelivery,
  SilentCompany,
  WhatsappActivity,
} from '@embudo/contracts/http/whatsapp-activity';

/** Where one company's activity is read and its failed jobs retried: the company's own routes, or the operator's. */
export interface ActivitySource {
  key: readonly unknown[];
  load: () => Promise<WhatsappActivity>;
  retry: (jobId: string) => Promise<RetryJobResponse>;
}

export const ownActivity: ActivitySource = {
  key: ['whatsapp-activity'],
  load: () => api.get<WhatsappActivity>('/api/whatsapp/activity'),
  retry: (jobId) => api.post<RetryJobResponse>(`/api/whatsapp/activity/jobs/${encodeURIComponent(jobId)}/retry`),
};

export function operatorActivity(tenantId: string): ActivitySource {
  const base = `/api/admin/tenants/${encodeURIComponent(tenantId)}/whatsapp-activity`;
  return {
    key: ['admin', 'whatsapp-activity', tenantId],
    load: () => api.get<WhatsappActivity>(base),
    retry: (jobId) => api.post<RetryJobResponse>(`${base}/jobs/${encodeURIComponent(jobId)}/retry`),
  };
}

export const silentCompanies = (hours: number) => api.get<SilentCompany[]>(`/api/admin/whatsapp-activity/silent-companies?hours=${hours}`);
