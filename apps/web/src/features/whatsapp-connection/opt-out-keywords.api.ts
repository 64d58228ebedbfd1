import type { OptOutKeywords, OptOutKeywordsRequest } from '@embudo/contracts/http/whatsapp';
import { api } from '../../shared/api-client/api-client.ts';

/** Issue 43: the words that, written alone by a customer, stop marketing templates to them. */
export const optOutKeywordsApi = {
  load: () => api.get<OptOutKeywords>('/api/whatsapp/opt-out-keywords'),
  save: (request: OptOutKeywordsRequest) => api.put<OptOutKeywords>('/api/whatsapp/opt-out-keywords', request),
};
