import { Navigate, type RouteObject } from 'react-router';
import { adminRoute } from '../features/admin/admin-routes.tsx';
import { RequirePermission } from '../features/auth/RequirePermission.tsx';
import { RootLayout } from './layouts/RootLayout.tsx';
import { RouteFallback } from './layouts/RouteFallback.tsx';
import { TenantLayout } from './layouts/TenantLayout.tsx';

const templateEditor = async () => ({ Component: (await import('../features/templates/TemplateEditorPage.tsx')).TemplateEditorPage });

/** Routes exactly as spec 01 §2 lists them; no errorElement, so the router shows "Unexpected Application Error!". */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    hydrateFallbackElement: <RouteFallback />,
    children: [
      // The landing (with i18next), sign-in and registration load on demand: none of it is in the board's first paint.
      { index: true, lazy: async () => ({ Component: (await import('../features/landing/LandingPage.tsx')).LandingPage }) },
      { path: 'login', lazy: async () => ({ Component: (await import('../features/auth/LoginPage.tsx')).LoginPage }) },
      { path: 'register', lazy: async () => ({ Component: (await import('../features/auth/RegisterPage.tsx')).RegisterPage }) },
      // A signed-in member plays a WhatsApp customer of their company against the in-process fake Gupshup.
      { path: 'sandbox', lazy: async () => ({ Component: (await import('../features/sandbox-phone/SandboxPhonePage.tsx')).SandboxPhonePage }) },
      adminRoute,
      {
        path: 't/:tenantSlug',
        element: <TenantLayout />,
        children: [
          {
            path: 'force-password-change',
            lazy: async () => ({ Component: (await import('../features/auth/ForcePasswordChangePage.tsx')).ForcePasswordChangePage }),
          },
          {
            // The signed-in app loads on demand so the landing and sign-in pages stay light.
            lazy: async () => ({ Component: (await import('./layouts/ShellLayout.tsx')).ShellLayout }),
            children: [
              { index: true, lazy: async () => ({ Component: (await import('../features/board/BoardPage.tsx')).BoardPage }) },
              { path: 'agenda', lazy: async () => ({ Component: (await import('../features/agenda/AgendaPage.tsx')).AgendaPage }) },
              { path: 'templates', lazy: async () => ({ Component: (await import('../features/templates/TemplatesPage.tsx')).TemplatesPage }) },
              { path: 'batches', lazy: async () => ({ Component: (await import('../features/bulk-sends/BatchesPage.tsx')).BatchesPage }) },
              {
                // Mirrors the server's policy: creating and editing templates and Bots Studio are for owners and admins
                // (spec 01 §2, §6); every other role reads the board, agenda, templates and batches.
                element: <RequirePermission need="canManage" />,
                children: [
                  { path: 'templates/new', lazy: templateEditor },
                  { path: 'templates/:templateId', lazy: templateEditor },
                  { path: 'bots', lazy: async () => ({ Component: (await import('../features/bots/BotsPage.tsx')).BotsPage }) },
                  { path: 'bots/:botId', lazy: async () => ({ Component: (await import('../features/bot-editor/BotEditorPage.tsx')).BotEditorPage }) },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
