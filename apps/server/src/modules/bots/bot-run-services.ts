import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import type { Db } from '../../platform/db/database.ts';
import type { OutboundHttp } from '../../platform/outbound-http/outbound-http.guard.ts';
import { columnsOfTenant } from '../funnels/index.ts';
import { findUser } from '../users/index.ts';
import type { AiResponder } from './ai-responder.ts';
import { bookSlot, nextFreeSlots } from './bot-agenda-slots.ts';
import { isUuid } from './bots.service.ts';
import type { EmailSender } from './email-sender.ts';
import type { RuntimeServices } from './runtime/node-executor.ts';

/** What every run of a flow needs from the app: the database and the ways out (HTTP, e-mail, AI). */
export interface BotRunDeps {
  db: Db;
  /** Opens the credentials sealed in a flow's nodes, to run it. */
  box: SecretBox;
  http: OutboundHttp;
  email?: EmailSender;
  ai?: AiResponder;
}

/** A run's services for one tenant; `moveTo` decides what a redirect does (a live chat moves its card). */
export function runServicesFor(deps: BotRunDeps, tenantId: string, moveTo?: (column: { id: string; funnelId: string }) => void): RuntimeServices {
  return {
    http: deps.http,
    email: deps.email,
    ai: deps.ai,
    async redirectToColumn(columnId) {
      if (!isUuid(columnId)) return undefined;
      const [column] = await columnsOfTenant(deps.db, tenantId, [columnId]);
      if (!column) return undefined;
      moveTo?.({ id: column.id, funnelId: column.funnelId });
      return column.title;
    },
    async memberName(userId) {
      return isUuid(userId) ? (await findUser(deps.db, tenantId, userId))?.name : undefined;
    },
    nextFreeSlots: (eventType) => nextFreeSlots(deps.db, tenantId, eventType),
    bookSlot: (slot, client) => bookSlot(deps.db, tenantId, slot, client),
  };
}
