import type { WhatsAppConnectionTest, WhatsAppSettings, WhatsAppSettingsRequest } from '@embudo/contracts/http/whatsapp';
import { api } from '../../shared/api-client/api-client.ts';

/** Issue 18: the company's WhatsApp connection, through Gupshup or Meta's Cloud API. */
export const providerSettingsApi = {
  load: () => api.get<WhatsAppSettings>('/api/whatsapp/settings'),
  save: (settings: WhatsAppSettingsRequest) => api.put<WhatsAppSettings>('/api/whatsapp/settings', settings),
  test: (settings: WhatsAppSettingsRequest) => api.post<WhatsAppConnectionTest>('/api/whatsapp/settings/test', settings),
};
