import { Navigate, type RouteObject } from 'react-router';

/**
 * /admin/*: the platform-operator area, loaded on demand. Signed-out operators are sent to /admin/login by the
 * layout; unknown admin paths go to the dashboard (and from there to the login when signed out).
 */
export const adminRoute: RouteObject = {
  path: 'admin',
  lazy: async () => ({ Component: (await import('./AdminRoot.tsx')).AdminRoot }),
  children: [
    { path: 'login', lazy: async () => ({ Component: (await import('./AdminLoginPage.tsx')).AdminLoginPage }) },
    {
      lazy: async () => ({ Component: (await import('./AdminLayout.tsx')).AdminLayout }),
      children: [
        { index: true, element: <Navigate to="/admin/dashboard" replace /> },
        { path: 'dashboard', lazy: async () => ({ Component: (await import('./AdminDashboardPage.tsx')).AdminDashboardPage }) },
        { path: 'tenants', lazy: async () => ({ Component: (await import('./AdminTenantsPage.tsx')).AdminTenantsPage }) },
        { path: 'templates', lazy: async () => ({ Component: (await import('./AdminTemplatesPage.tsx')).AdminTemplatesPage }) },
        { path: 'settings', lazy: async () => ({ Component: (await import('./AdminSettingsPage.tsx')).AdminSettingsPage }) },
        { path: '*', element: <Navigate to="/admin/dashboard" replace /> },
      ],
    },
  ],
};
