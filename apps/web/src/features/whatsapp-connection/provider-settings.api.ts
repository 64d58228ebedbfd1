import type { ProviderSettingsRequest, ProviderSettingsResponse } from '@embudo/contracts/http/chats';
import { api } from '../../shared/api-client/api-client.ts';

export const providerSettingsApi = {
  load: () => api.get<ProviderSettingsResponse>('/api/gupshup/settings'),
  save: (settings: ProviderSettingsRequest) => api.put<ProviderSettingsResponse>('/api/gupshup/settings', settings),
};
