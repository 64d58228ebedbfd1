/** A board column's colours. Free of zod: the board's first paint needs them, not the funnels' schemas. */
export const columnColors = ['blue', 'orange', 'purple', 'green'] as const;
