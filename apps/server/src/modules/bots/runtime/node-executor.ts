import type { NodeDataOf, NodeType } from '@embudo/contracts/flows/flow';
import type { FlowOption } from '@embudo/contracts/flows/nodes/sendMessageWithOptions';
import type { OutboundHttp } from '../../../platform/outbound-http/outbound-http.guard.ts';
import type { AiResponder } from '../ai-responder.ts';
import type { EmailSender } from '../email-sender.ts';

/** What the bot says to the customer; the playground shows it as text, a live chat sends it on WhatsApp. */
export type BotMessage =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string; data: Buffer; mime: string; extension: string }
  | { type: 'options'; text: string; options: FlowOption[] };

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
  /** Undefined when GEMINI_API_KEY is not set. */
  ai?: AiResponder;
  /** Live: moves the card there. Playground: only looks the column up. Answers its title, or undefined when it is not the tenant's. */
  redirectToColumn(columnId: string): Promise<string | undefined>;
  /** The team member's name, or undefined when the id is not one of the tenant's users. */
  memberName(userId: string): Promise<string | undefined>;
  /** The agenda's next free start times for this kind of event, formatted for the customer (none when nothing fits). */
  nextFreeSlots(eventType: string): Promise<string[]>;
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
  | { kind: 'wait_input' }
  | { kind: 'wait_timer'; ms: number }
  | { kind: 'stop'; status: 'ended' | 'human' };

export interface NodeExecutor<T extends NodeType> {
  run(data: NodeDataOf<T>, ctx: NodeContext): Promise<NodeOutcome>;
  /** Nodes that wait for the customer read the answer here. */
  resume?(data: NodeDataOf<T>, answer: CustomerAnswer, ctx: NodeContext): Promise<NodeOutcome>;
}

export const next = (handle: string | null = null): NodeOutcome => ({ kind: 'next', handle });
