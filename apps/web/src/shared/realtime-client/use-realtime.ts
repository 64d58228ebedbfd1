import { useContext } from 'react';
import { RealtimeContext, type RealtimeApi } from './realtime-context.ts';

export function useRealtime(): RealtimeApi {
  const realtime = useContext(RealtimeContext);
  if (!realtime) throw new Error('useRealtime must be used inside <SocketProvider>');
  return realtime;
}
