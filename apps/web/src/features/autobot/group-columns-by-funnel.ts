import type { ColumnSummary } from '../board/board.api.ts';

export interface FunnelColumns {
  funnelId: string;
  funnelName: string;
  columns: ColumnSummary[];
}

/** Columns in the order the server lists them, grouped under their funnel. */
export function groupColumnsByFunnel(columns: readonly ColumnSummary[]): FunnelColumns[] {
  const groups: FunnelColumns[] = [];
  for (const column of columns) {
    let group = groups.find((candidate) => candidate.funnelId === column.funnelId);
    if (!group) {
      group = { funnelId: column.funnelId, funnelName: column.funnelName ?? 'Funnel', columns: [] };
      groups.push(group);
    }
    group.columns.push(column);
  }
  return groups;
}
