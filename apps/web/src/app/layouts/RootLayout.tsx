import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { SessionProvider } from '../../features/auth/SessionProvider.tsx';
import { ModalProvider } from '../../shared/ui/ModalProvider.tsx';
import { useModal } from '../../shared/ui/use-modal.ts';

/** A modal belongs to the page it was opened on. */
function CloseModalOnNavigation() {
  const { pathname } = useLocation();
  const { close } = useModal();
  useEffect(() => close(), [pathname, close]);
  return null;
}

/** Root of every route: the session and the modal manager need the router, so they live here. */
export function RootLayout() {
  return (
    <SessionProvider>
      <ModalProvider>
        <CloseModalOnNavigation />
        <Outlet />
        <ScrollRestoration />
      </ModalProvider>
    </SessionProvider>
  );
}
