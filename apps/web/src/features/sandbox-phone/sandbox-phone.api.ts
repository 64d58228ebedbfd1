import type { RenderedTemplate } from '@embudo/contracts/http/templates';
import { api } from '../../shared/api-client/api-client.ts';

/** The signed-in member's company on the in-process fake Gupshup: the business side of the sandbox phone. */
export interface SandboxApp {
  appName: string;
  sourceNumber: string;
  /** The company's name. */
  label?: string;
}

export type PhoneMessageStatus = 'submitted' | 'enqueued' | 'sent' | 'delivered' | 'read' | 'failed';

/** One message of the fake's conversation with a customer (or group). */
export interface PhoneMessage {
  id: string;
  /** A business message's WhatsApp id: what a quote of it names. */
  whatsappId?: string;
  direction: 'to_customer' | 'from_customer';
  type: string;
  /** To the customer: Gupshup's `message` JSON as sent. From the customer: the inbound inner payload. */
  body: Record<string, unknown>;
  status: PhoneMessageStatus;
  /** Who wrote, in a group conversation. */
  participant?: { phone: string; name?: string };
  /** Set for a template the fake could render (approved at the provider). */
  template?: RenderedTemplate;
  createdAt: string;
}

export type CustomerMessageInput =
  | { kind: 'text'; text: string }
  | { kind: 'location'; latitude: number; longitude: number; name?: string; address?: string }
  | { kind: 'button_reply'; title: string; id?: string; postbackText?: string }
  /** A tap on a template's quick-reply button (Gupshup's `quick_reply` inbound with `type: button`). */
  | { kind: 'quick_reply'; text: string; postbackText?: string }
  | { kind: 'list_reply'; title: string; id?: string; postbackText?: string }
  | { kind: 'media'; dataBase64: string; fileName: string; caption?: string; voice?: boolean };

/** The company is the session's: the server never takes it from the request. */
export interface CustomerSendRequest {
  phone: string;
  name?: string;
  group?: { id: string; name?: string };
  message: CustomerMessageInput;
}

export const sandboxPhoneApi = {
  company: () => api.get<SandboxApp>('/sandbox/api/app'),
  /** In a group the conversation is keyed by the group's id instead of the customer's phone. */
  conversation: async (phone: string) => {
    const query = new URLSearchParams({ phone });
    const answer = await api.get<{ messages?: PhoneMessage[] }>(`/sandbox/api/conversation?${query}`);
    return answer?.messages ?? [];
  },
  send: (request: CustomerSendRequest) => api.post<{ id: string }>('/sandbox/api/send', request),
};
