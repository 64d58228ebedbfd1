import type {
  SandboxApp,
  SandboxChangeRequest,
  SandboxChangeResponse,
  SandboxConversation,
  SandboxSendRequest,
  SandboxSendResponse,
} from '@embudo/contracts/http/sandbox-phone';
import { api } from '../../shared/api-client/api-client.ts';

export const sandboxPhoneApi = {
  company: () => api.get<SandboxApp>('/sandbox/api/app'),
  /** In a group the conversation is keyed by the group's id instead of the customer's phone. */
  conversation: async (phone: string) => {
    const query = new URLSearchParams({ phone });
    const answer = await api.get<SandboxConversation | undefined>(`/sandbox/api/conversation?${query}`);
    return answer?.messages ?? [];
  },
  /** The company is the session's: the server never takes it from the request. */
  send: (request: SandboxSendRequest) => api.post<SandboxSendResponse>('/sandbox/api/send', request),
  /** The customer reacts to a message, or edits or deletes one of their own. */
  change: (request: SandboxChangeRequest) => api.post<SandboxChangeResponse>('/sandbox/api/change', request),
};
