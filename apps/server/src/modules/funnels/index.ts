/**
 * The funnels module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Funnels, columns, cards and the board. Imports tenants and templates;
 * bots reach it through the ColumnBots port.
 */
export { funnelsPlugin } from './funnels.plugin.ts';
export { type ArchiveLanding, type BoardEvents, type ColumnBots, switchCardAiOff } from './board-edit.service.ts';
export { COLUMN_NOT_FOUND } from './board.service.ts';
export { withAssistantDefaults } from './column-dto.ts';
export { type ToolFileKnowledge } from './column-settings.service.ts';
export { realtimeBoardEvents } from './board-realtime.ts';
export { funnelColumns } from './board.service.ts';
export { publishCardMove } from './card-events.ts';
export {
  type CardPlace,
  type CardRow,
  type CardSummaryRow,
  type LearntName,
  cardsWithAiOn,
  findCard,
  findCardByPhone,
  findOrCreateCard,
  findOrCreateCards,
  keepAdReferral,
  placeCard,
  recordCardActivity,
  recordCardsActivity,
  searchChatContacts,
  toCardUpdate,
} from './cards.service.ts';
export {
  clearColumnsBot,
  columnAssistant,
  columnBot,
  columnsWithBot,
  columnsOfFunnel,
  columnsOfTenant,
  createDefaultFunnel,
  firstColumn,
  listFunnelIds,
  visibleColumnPlace,
} from './funnels.service.ts';
