import type { CardAiOffReason, CardSummary, Column } from '@embudo/contracts/http/funnels';

/** Why someone switched the chat's AI off (the card's aiOffReason). */
export const AI_OFF_REASON_TEXT: Record<CardAiOffReason, string> = {
  team_reply: 'Alguien del equipo respondió',
  by_hand: 'Apagada a mano',
  handed_over: 'La IA pasó el chat a una persona',
  column_off: 'Apagada para toda la columna',
};
export const NO_ASSISTANT = 'Esta columna no tiene asistente';
export const FLOW_BOT = 'La columna tiene un bot de flujo';
/** Off with no one's reason in a column whose assistant answers: the chat came in before the assistant was switched on. */
export const CAME_BEFORE_ASSISTANT = 'El chat llegó antes de activar el asistente de la columna';

/** Why the chat's column does not answer, if it does not. */
function columnSilence(column: Pick<Column, 'gemini_config' | 'assistant_bot_id'>): string | null {
  if (column.assistant_bot_id) return FLOW_BOT;
  if (!column.gemini_config?.isEnabled) return NO_ASSISTANT;
  return null;
}

/**
 * What the chat's AI switch says under "AI Activa / AI Inactiva" (issue 44): when off, why — a person's reason first,
 * then the plan's, then the column's; when on but nothing answers here (the plan or the column), that it does not
 * answer and why. Null when the switch says it all. The column is unknown while the chat's funnel is not on screen.
 */
export function aiSwitchNote(
  card: Pick<CardSummary, 'aiEnabled' | 'aiOffReason'>,
  column: Pick<Column, 'gemini_config' | 'assistant_bot_id'> | undefined,
  planReason: string | null,
): string | null {
  if (!card.aiEnabled) {
    if (card.aiOffReason) return AI_OFF_REASON_TEXT[card.aiOffReason];
    if (planReason) return planReason;
    if (!column) return null;
    return columnSilence(column) ?? CAME_BEFORE_ASSISTANT;
  }
  const silence = planReason ?? (column ? columnSilence(column) : null);
  return silence ? `No responde: ${silence.charAt(0).toLowerCase()}${silence.slice(1)}` : null;
}
