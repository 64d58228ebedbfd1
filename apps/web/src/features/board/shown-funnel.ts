/** Where the board remembers the funnel last chosen in its selector. */
export const SELECTED_FUNNEL_KEY = 'board_funnel_id';

export const readSelectedFunnelId = () => localStorage.getItem(SELECTED_FUNNEL_KEY);
