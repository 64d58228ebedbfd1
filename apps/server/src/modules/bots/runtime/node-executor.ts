import type { NodeDataOf, NodeType } from '@embudo/contracts/flows/flow';
import type { FlowOption } from '@embudo/contracts/flows/nodes/sendMessageWithOptions';
import type { OutboundHttp } from '../../../platform/outbound-http/outbound-http.guard.ts';
import type { AiModel } from '../../ai/index.ts';
import type { EmailSender } from '../email-sender.ts';

/** What the bot says to the customer; the playground shows it as text, a live chat sends it on WhatsApp. */
export type BotMessage =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string; data: Buffer; mime: string; extension: string }
  | { type: 'options'; text: string; options: FlowOption[] };

/** A free time the schedule node offers: what the customer sees, and what booking it takes. */
export interface SlotOffer {
  id: string;
  /** Short enough for a WhatsApp reply button. */
  label: string;
  /** The whole sentence: day, time, service and professional. */
  description: string;
  professionalId: string;
  serviceId: string;
  startTime: string;
  endTime: string;
}

export type BookingOutcome = { booked: string } | { refused: string };

/** The customer's answer to a node that waits (the options node). */
export interface CustomerAnswer {
  text: string;
  /** A WhatsApp reply button's postback, when the customer pressed one. */
  postback?: string;
}

/** What the world outside the flow offers a node; a playground run and a live chat provide their own. */
export interface RuntimeServices {
  http: OutboundHttp;
  /** Undefined when SMTP_URL is not set. */
  email?: EmailSender;
  /** The AI module's model (AI_PROVIDER); undefined when none is configured. */
  ai?: AiModel;
  /** Live: moves the card there. Playground: only looks the column up. Answers its title, or undefined when it is not the tenant's. */
  redirectToColumn(columnId: string): Promise<string | undefined>;
  /** The columns the aiPrompt node's redirect tool may choose by title: the chat's funnel live, every funnel in the playground. */
  columnChoices(): Promise<Array<{ id: string; title: string }>>;
  /** Live: schedules a text for this chat as sender ai (an AppError says why not). The playground never calls it. */
  scheduleMessage(text: string, sendAt: Date): Promise<void>;
  /** The team member's name, or undefined when the id is not one of the tenant's users. */
  memberName(userId: string): Promise<string | undefined>;
  /** The agenda's next free times for this kind of event (none when nothing fits). */
  nextFreeSlots(eventType: string): Promise<SlotOffer[]>;
  /** Books an offered time for the customer with the Agenda's rules; refused when it is no longer free. */
  bookSlot(slot: SlotOffer, client: { name: string; phone: string }): Promise<BookingOutcome>;
}

export interface NodeContext {
  mode: 'simulation' | 'live';
  variables: Record<string, string>;
  interpolate(text: string): string;
  say(message: BotMessage): void;
  /** A note for the person testing in the playground (a skipped timer, a webhook's answer); live runs log it. */
  report(text: string): void;
  services: RuntimeServices;
}

export type NodeOutcome =
  /** Go on by the edge leaving this handle (an option id, 'true'/'false'), or by the node's only output. */
  | { kind: 'next'; handle?: string | null }
  /** Wait for the customer; `options` are the choices offered, when the node builds them at run time. */
  | { kind: 'wait_input'; options?: FlowOption[] }
  | { kind: 'wait_timer'; ms: number }
  | { kind: 'stop'; status: 'ended' | 'human' };

export interface NodeExecutor<T extends NodeType> {
  run(data: NodeDataOf<T>, ctx: NodeContext): Promise<NodeOutcome>;
  /** Nodes that wait for the customer read the answer here. */
  resume?(data: NodeDataOf<T>, answer: CustomerAnswer, ctx: NodeContext): Promise<NodeOutcome>;
}

export const next = (handle: string | null = null): NodeOutcome => ({ kind: 'next', handle });
