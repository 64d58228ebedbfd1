import { createContext, useContext } from 'react';

export interface EditorColumn {
  id: string;
  title: string;
  funnelName: string;
}

export interface EditorMember {
  id: string;
  name: string;
}

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
