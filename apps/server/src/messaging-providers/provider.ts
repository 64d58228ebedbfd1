/** The messaging-provider port: everything the app needs from WhatsApp, whatever the vendor. */
import type { TemplateButton, TemplateHeader, TemplateStatus, VariablesSchema } from '@embudo/contracts/http/templates';

export type MediaKind = 'image' | 'video' | 'audio' | 'document' | 'sticker';

export interface ProviderAccount {
  appName: string;
  sourceNumber: string;
  apiKey: string;
}

export type OutboundContent =
  | { type: 'text'; text: string; replyToProviderId?: string }
  | { type: MediaKind; url: string; caption?: string; fileName?: string; replyToProviderId?: string }
  | { type: 'location'; latitude: number; longitude: number; name?: string; address?: string }
  | { type: 'quick_reply'; msgId: string; text: string; header?: string; footer?: string; options: Array<{ title: string; postbackText: string }> }
  | {
      type: 'list';
      msgId: string;
      title: string;
      body: string;
      buttonTitle: string;
      options: Array<{ title: string; description?: string; postbackText: string }>;
    }
  | { type: 'template'; templateProviderId: string; params: string[]; headerMedia?: { type: 'image' | 'video' | 'document'; url: string; fileName?: string } };

export interface SendResult {
  providerMessageId: string;
}

/** A provider refusal or outage; `retryable` says whether trying again later may succeed. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    /** True when the request may have reached the provider (timeout): resending could duplicate. */
    readonly uncertain = false,
  ) {
    super(message);
  }
}

/**
 * Fetches the media of an inbound message from where the provider keeps it, and only from there.
 * Throws a ProviderError whose `retryable` says whether trying again later may help.
 */
export type MediaDownloader = (url: string) => Promise<{ data: Buffer; contentType?: string }>;

export type InboundMessageType =
  'text' | 'image' | 'video' | 'audio' | 'document' | 'sticker' | 'location' | 'button_reply' | 'list_reply' | 'contact' | 'unsupported';

export interface InboundMessage {
  kind: 'message';
  /** The WhatsApp id of the customer's message: unique per tenant, the idempotency key. */
  providerMessageId: string;
  from: string;
  senderName?: string;
  type: InboundMessageType;
  text?: string;
  media?: { url: string; contentType?: string; fileName?: string };
  location?: { latitude: number; longitude: number; name?: string; address?: string };
  reply?: { id?: string; title: string; postbackText?: string };
  quoted?: { providerMessageId?: string; whatsappMessageId?: string };
  group?: { id: string; name?: string };
  timestamp: Date;
  raw: unknown;
}

export type DeliveryStatus = 'enqueued' | 'sent' | 'delivered' | 'read' | 'failed';

export interface InboundStatus {
  kind: 'status';
  /** Our send's provider id (Gupshup's message id). */
  providerMessageId?: string;
  whatsappMessageId?: string;
  status: DeliveryStatus;
  reason?: string;
  timestamp: Date;
}

export type InboundEvent = InboundMessage | InboundStatus;

/** A delivery the provider sent that cannot be used (no id, an absurd id…): refused and recorded, never retried into a 500. */
export class MalformedDelivery extends Error {}

/** A message template as it goes to WhatsApp's review (Meta reviews it through the provider, docs/decisions/0004). */
export interface TemplateForReview {
  name: string;
  category: string;
  languageCode: string;
  header: TemplateHeader | null;
  bodyText: string;
  footer: string | null;
  buttons: TemplateButton[];
  variablesSchema: VariablesSchema;
}

/** A template as the provider holds it, its review status already in our five. */
export interface ProviderTemplate {
  id: string;
  name: string;
  languageCode: string;
  status: TemplateStatus;
  reason: string | null;
}

/**
 * An app's templates at the provider (the app name is the app id). Refusals and outages are
 * ProviderErrors carrying the provider's own message; our own errors (no credentials) pass through.
 */
export interface TemplateCatalog {
  submit(appId: string, template: TemplateForReview): Promise<ProviderTemplate>;
  list(appId: string): Promise<ProviderTemplate[]>;
  /** With a template id only that language goes, by name alone every language; a template already gone counts as removed. */
  remove(appId: string, name: string, providerTemplateId?: string): Promise<void>;
  /** Uploads a header sample and answers the handle the review needs. */
  uploadSample(appId: string, file: { data: Buffer; mime: string; fileName: string }): Promise<string>;
}

export interface MessagingProvider {
  send(account: ProviderAccount, destination: string, content: OutboundContent): Promise<SendResult>;
  /**
   * Tells the customer's WhatsApp that the business read this inbound message (by its WhatsApp id);
   * WhatsApp shows every earlier message of the chat as read too. Throws a ProviderError.
   */
  markRead(account: Pick<ProviderAccount, 'appName' | 'sourceNumber'>, whatsappMessageId: string): Promise<void>;
  /** The events of one callback; throws MalformedDelivery when the callback cannot be used. */
  parseWebhook(body: unknown, receivedAt?: Date): InboundEvent[];
  templates: TemplateCatalog;
}

/** Spec ack values: -1 error, 0 sending, 1 sent, 2 delivered, 3 read. */
export const ackByStatus: Record<DeliveryStatus, -1 | 0 | 1 | 2 | 3> = { enqueued: 0, sent: 1, delivered: 2, read: 3, failed: -1 };
