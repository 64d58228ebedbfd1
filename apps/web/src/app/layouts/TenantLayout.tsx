import { Navigate, Outlet, useLocation, useParams } from 'react-router';
import { useSession } from '../../features/auth/use-session.ts';

const FORCE_PASSWORD_CHANGE = 'force-password-change';

/**
 * Guards /t/{tenantSlug}/*: signed-out users go to /login, a foreign slug is replaced by the
 * session's own, and a user holding a temporary password is kept on force-password-change.
 */
export function TenantLayout() {
  const { session } = useSession();
  const { tenantSlug } = useParams();
  const location = useLocation();

  if (!session) return <Navigate to="/login" replace />;

  const base = `/t/${session.tenant.slug}`;
  if (tenantSlug !== session.tenant.slug) {
    const rest = location.pathname.replace(/^\/t\/[^/]*/, '');
    return <Navigate to={`${base}${rest}${location.search}${location.hash}`} replace />;
  }

  const onForcedChange = location.pathname.replace(/\/+$/, '') === `${base}/${FORCE_PASSWORD_CHANGE}`;
  if (session.user.force_password_change && !onForcedChange) return <Navigate to={`${base}/${FORCE_PASSWORD_CHANGE}`} replace />;
  if (!session.user.force_password_change && onForcedChange) return <Navigate to={base} replace />;

  return <Outlet />;
}
