import { createContext, useContext } from 'react';
import type { SessionUser } from '@embudo/contracts/http/auth';
import type { NamedColumn } from '@embudo/contracts/http/funnels';

export type EditorColumn = Pick<NamedColumn, 'id' | 'title' | 'funnelName'>;

export type EditorMember = Pick<SessionUser, 'id' | 'name'>;

/** What node editors need from the page: the company's columns and team, and node removal. */
export interface EditorContextValue {
  columns: readonly EditorColumn[];
  members: readonly EditorMember[];
  removeNode(nodeId: string): void;
  /** Drops the edges leaving a handle that no longer exists (a removed option). */
  dropHandle(nodeId: string, handleId: string): void;
}

export const EditorContext = createContext<EditorContextValue | null>(null);

export function useEditor(): EditorContextValue {
  const value = useContext(EditorContext);
  if (!value) throw new Error('useEditor must be used inside the bot editor');
  return value;
}
