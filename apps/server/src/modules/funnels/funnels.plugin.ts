import type { FastifyPluginAsync } from 'fastify';
import type { ToolFileKnowledge } from './column-settings.service.ts';
import type { AppContext } from '../../platform/app-context.ts';
import { registerTenantRoutes } from '../../platform/http/route-access.ts';
import type { ArchiveLanding, ColumnBots } from './board-edit.service.ts';
import { realtimeBoardEvents } from './board-realtime.ts';
import { funnelsRoutes } from './funnels.routes.ts';

export interface FunnelsPluginOptions extends AppContext {
  /** The bots module's view of which columns run a flow bot (bots sit above funnels). */
  columnBots: ColumnBots;
  /** Where an archived chat lands: the auto-bot's waiting room (autobot sits above funnels). */
  archiveLanding: ArchiveLanding;
  /** Reads and indexes an uploaded assistant tool file for the AI's knowledge search (the ai module sits above funnels). */
  toolFiles: ToolFileKnowledge;
}

/** Funnels, columns, cards and the board. */
export const funnelsPlugin: FastifyPluginAsync<FunnelsPluginOptions> = async (app, context) => {
  const { db, storage, domainEvents, realtime, columnBots, archiveLanding, toolFiles } = context;
  await registerTenantRoutes(app, (scope) =>
    scope.register(funnelsRoutes, { db, storage, domainEvents, events: realtimeBoardEvents(realtime), bots: columnBots, archiveLanding, toolFiles }),
  );
};
