import { useQueryClient } from '@tanstack/react-query';
import { useSocketEvent } from '../../shared/realtime-client/use-socket-event.ts';
import { useSession } from '../auth/use-session.ts';

/**
 * An owner or admin changed this user's role, funnels or status: the menus, the board's write
 * tools and the funnel list follow at once, without signing in again.
 */
export function LiveSessionUpdates() {
  const { updateUser } = useSession();
  const queryClient = useQueryClient();
  useSocketEvent('user_updated', (user) => {
    updateUser(user);
    void queryClient.invalidateQueries({ queryKey: ['funnels'] });
  });
  return null;
}
