/** Where the board remembers the funnel last chosen in its selector. */
export const SELECTED_FUNNEL_KEY = 'board_funnel_id';

export const readSelectedFunnelId = () => localStorage.getItem(SELECTED_FUNNEL_KEY);

/** The funnel the board shows: the one last chosen while it is still listed, otherwise the first. */
export function shownFunnelId(funnels: readonly { id: string }[], selectedId: string | null): string | null {
  return funnels.find((funnel) => funnel.id === selectedId)?.id ?? funnels[0]?.id ?? null;
}
