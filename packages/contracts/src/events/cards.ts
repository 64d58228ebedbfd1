/** Domain events of the funnels module: cards moving on the board. */
import { z } from 'zod';

/** Who moved a card: a person on the board, the menu auto-bot, a flow's redirect node, or archiving. */
export const cardMover = z.enum(['user', 'autobot', 'bot', 'archive', 'ai']);

/** A card changed column (within its funnel or to another). */
export const cardMoved = z.object({
  cardId: z.uuid(),
  fromColumnId: z.uuid(),
  toColumnId: z.uuid(),
  fromFunnelId: z.uuid(),
  toFunnelId: z.uuid(),
  movedBy: cardMover,
  /**
   * The customer's message that made the move (the menu choice, a flow's answer): it was the router's to answer, so the
   * assistant of the column the card entered does not take it for a question.
   */
  causeMessageId: z.uuid().optional(),
});

/**
 * A card entered a column by a move of a person, the auto-bot or a flow (not by being created there, nor by
 * archiving, which publishes `card.archived`): a flow that starts on entry there begins.
 * `chainDepth` counts entries caused by flows moving the card on, so two columns cannot bounce a card forever.
 */
export const cardEnteredColumn = z.object({
  cardId: z.uuid(),
  columnId: z.uuid(),
  funnelId: z.uuid(),
  chainDepth: z.number().int().min(0),
});

/** A chat was archived (and moved to the auto-bot's waiting room when the bot runs: `columnId` is where it ended). */
export const cardArchived = z.object({
  cardId: z.uuid(),
  columnId: z.uuid(),
  funnelId: z.uuid(),
});
