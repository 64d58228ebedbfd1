import type { SessionTenant, SessionUser } from '@embudo/contracts/http/auth';

/** Where a freshly signed-in user lands: the board, or the forced password change first. */
export function sessionHomePath(session: { user: Pick<SessionUser, 'force_password_change'>; tenant: Pick<SessionTenant, 'slug'> }) {
  const board = `/t/${session.tenant.slug}`;
  return session.user.force_password_change ? `${board}/force-password-change` : board;
}
