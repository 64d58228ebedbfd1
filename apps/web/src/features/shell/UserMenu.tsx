import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../auth/use-session.ts';
import { lazyNamed } from '../../shared/ui/lazy-named.ts';
import { useModal } from '../../shared/ui/use-modal.ts';
import { canManageTenant, planLabels, roleLabels } from './role-labels.ts';
import { userInitials } from './user-initials.ts';

// Opened from the menu only: their code loads then, not with the signed-in shell every page waits for.
const MyAccountDialog = lazyNamed(() => import('../account/MyAccountDialog.tsx'), 'MyAccountDialog');
const UsageModal = lazyNamed(() => import('../account/UsageModal.tsx'), 'UsageModal');
const WhatsAppConnectionDialog = lazyNamed(() => import('../whatsapp-connection/WhatsAppConnectionDialog.tsx'), 'WhatsAppConnectionDialog');
const TeamDialog = lazyNamed(() => import('../team/TeamDialog.tsx'), 'TeamDialog');
const AutobotDialog = lazyNamed(() => import('../autobot/AutobotDialog.tsx'), 'AutobotDialog');

interface MenuEntry {
  label: string;
  icon: ReactNode;
  action: () => void;
  tone?: 'danger';
}

const icon = (d: string) => (
  <svg
    viewBox="0 0 24 24"
    className="size-4"
    fill="none"
    stroke="currentColor"
    strokeWidth="1.8"
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
  >
    <path d={d} />
  </svg>
);

const icons = {
  usage: icon('M4 20V10m6 10V4m6 16v-7m4 7H2'),
  profile: icon('M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0'),
  settings: icon(
    'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7.4-3a7.4 7.4 0 0 0-.1-1.2l2-1.6-2-3.4-2.4 1a7.3 7.3 0 0 0-2-1.2L14.5 3h-5l-.4 2.6a7.3 7.3 0 0 0-2 1.2l-2.4-1-2 3.4 2 1.6a7.4 7.4 0 0 0 0 2.4l-2 1.6 2 3.4 2.4-1a7.3 7.3 0 0 0 2 1.2l.4 2.6h5l.4-2.6a7.3 7.3 0 0 0 2-1.2l2.4 1 2-3.4-2-1.6c.1-.4.1-.8.1-1.2Z',
  ),
  bots: icon('M12 8V4m-6 4h12a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2Zm3 5h.01M15 13h.01'),
  team: icon('M16 20v-1a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v1m7-9a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm13 9v-1a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8'),
  templates: icon('M4 5h16M4 5v14h16V5M8 9h8m-8 4h5'),
  autobot: icon('M13 2 3 14h9l-1 8 10-12h-9l1-8Z'),
  whatsapp: icon('M3 21l1.6-4.7A8.5 8.5 0 1 1 8 19.6L3 21Z'),
  logout: icon('M15 17l5-5-5-5m5 5H9m4 9H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h8'),
};

/** Avatar button and dropdown: account, usage, the owner/admin tools and sign-out. */
export function UserMenu() {
  const navigate = useNavigate();
  const modal = useModal();
  const { session, logout } = useSession();
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointerDown);
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    return () => document.removeEventListener('mousedown', onPointerDown);
  }, [open]);

  if (!session) return null;
  const { user, tenant } = session;
  const slug = tenant.slug;

  const everyone: MenuEntry[] = [
    { label: 'Mi Consumo', icon: icons.usage, action: () => modal.open((close) => <UsageModal onClose={close} />) },
    { label: 'Mi Perfil', icon: icons.profile, action: () => modal.open((close) => <MyAccountDialog onClose={close} initialTab="profile" />) },
    { label: 'Configuración', icon: icons.settings, action: () => modal.open((close) => <MyAccountDialog onClose={close} initialTab="profile" />) },
  ];
  const managers: MenuEntry[] = canManageTenant(user.role)
    ? [
        { label: 'Bots Studio', icon: icons.bots, action: () => void navigate(`/t/${slug}/bots`) },
        { label: 'Administrar Equipo', icon: icons.team, action: () => modal.open((close) => <TeamDialog onClose={close} />) },
        { label: 'Plantillas', icon: icons.templates, action: () => void navigate(`/t/${slug}/templates`) },
        { label: 'Configurar Bot Auto', icon: icons.autobot, action: () => modal.open((close) => <AutobotDialog onClose={close} />) },
        { label: 'Conexión WhatsApp', icon: icons.whatsapp, action: () => modal.open((close) => <WhatsAppConnectionDialog onClose={close} />) },
      ]
    : [];
  const signOut: MenuEntry = { label: 'Cerrar Sesión', icon: icons.logout, tone: 'danger', action: () => void logout() };

  const choose = (entry: MenuEntry) => {
    setOpen(false);
    entry.action();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const focusAt = (next: number) => items[(next + items.length) % items.length]?.focus();
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      focusAt(index + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      focusAt(index - 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      focusAt(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      focusAt(items.length - 1);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  const item = (entry: MenuEntry) => (
    <button
      key={entry.label}
      type="button"
      role="menuitem"
      tabIndex={-1}
      onClick={() => choose(entry)}
      className={`flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm outline-none transition ${
        entry.tone === 'danger' ? 'text-rose-600 hover:bg-rose-50 focus:bg-rose-50' : 'text-slate-700 hover:bg-slate-100 focus:bg-slate-100'
      }`}
    >
      <span className={entry.tone === 'danger' ? 'text-rose-500' : 'text-slate-400'}>{entry.icon}</span>
      {entry.label}
    </button>
  );

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        data-testid="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={`Menú de ${user.name}`}
        onClick={() => setOpen((value) => !value)}
        className="flex items-center gap-2 rounded-full p-0.5 pr-2 transition hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-600"
      >
        <span
          className="grid size-9 place-items-center rounded-full bg-gradient-to-br from-emerald-500 to-teal-600 text-sm font-semibold text-white shadow-sm"
          aria-hidden="true"
        >
          {userInitials(user.name)}
        </span>
        <span className="hidden text-left md:block">
          <span className="block max-w-36 truncate text-sm font-semibold text-slate-800">{user.name}</span>
          <span className="block text-xs text-slate-500">{roleLabels[user.role]}</span>
        </span>
        <svg viewBox="0 0 20 20" className="hidden size-4 text-slate-400 md:block" fill="currentColor" aria-hidden="true">
          <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </button>
      {open && (
        <div
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label="Menú de usuario"
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 z-40 mt-2 w-72 origin-top-right rounded-xl bg-white p-1.5 shadow-xl ring-1 ring-slate-900/10"
        >
          <div className="flex items-center gap-3 px-3 pt-2.5 pb-3">
            <span
              className="grid size-10 shrink-0 place-items-center rounded-full bg-gradient-to-br from-emerald-500 to-teal-600 text-sm font-semibold text-white"
              aria-hidden="true"
            >
              {userInitials(user.name)}
            </span>
            <div className="min-w-0">
              <p className="truncate text-sm font-semibold text-slate-900">{user.name}</p>
              <p className="truncate text-xs text-slate-500">{user.email}</p>
              <p className="mt-1 truncate text-xs text-slate-500">
                {tenant.name} · <span className="font-medium text-emerald-700">{planLabels[tenant.subscription_plan]}</span>
              </p>
            </div>
          </div>
          <div className="border-t border-slate-100 py-1">{everyone.map(item)}</div>
          {managers.length > 0 && <div className="border-t border-slate-100 py-1">{managers.map(item)}</div>}
          <div className="border-t border-slate-100 pt-1">{item(signOut)}</div>
        </div>
      )}
    </div>
  );
}
