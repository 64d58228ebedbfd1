import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../platform/app-context.ts';
import type { Db } from '../../platform/db/database.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import type { OutboundDeps } from '../chats/index.ts';
import { type ArchiveLanding, realtimeBoardEvents } from '../funnels/index.ts';
import { createAutobotListeners } from './autobot.listeners.ts';
import { autobotRoutes } from './autobot.routes.ts';
import { greetOnNextMessage, landingColumn } from './autobot.service.ts';

export interface AutobotPluginOptions extends AppContext {
  /** The chats module's outbound queue, through which the bot answers. */
  outbound: OutboundDeps;
}

/** The menu auto-bot: its settings, and its answers to customers in its waiting room (a listener, after the webhook). */
export const autobotPlugin: FastifyPluginAsync<AutobotPluginOptions> = async (app, { db, domainEvents, realtime, outbound }) => {
  for (const listener of createAutobotListeners({ db, outbound, boardEvents: realtimeBoardEvents(realtime) })) domainEvents.register(listener);
  await registerTenantRoutes(app, (scope) => scope.register(autobotRoutes, { db }));
};

/** An archived chat goes back to the waiting room, where the bot greets the contact on their next message. */
export function waitingRoomArchive(db: Db): ArchiveLanding {
  return { column: (tenantId) => landingColumn(db, tenantId), returned: (tenantId, cardId) => greetOnNextMessage(db, tenantId, cardId) };
}
