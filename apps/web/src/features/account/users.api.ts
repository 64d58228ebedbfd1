import type { SessionUser } from '@embudo/contracts/http/auth';
import type { UpdateUserNameRequest } from '@embudo/contracts/http/users';
import { api } from '../../shared/api-client/api-client.ts';

export const usersApi = {
  /** Only the name: the profile tab must not touch role, access or status. */
  updateName: (userId: string, name: string) => api.put<SessionUser>(`/api/users/${encodeURIComponent(userId)}`, { name } satisfies UpdateUserNameRequest),
};
