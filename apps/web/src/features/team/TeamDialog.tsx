import type { SessionUser } from '@embudo/contracts/http/auth';
import { OWNER_CANNOT_DEACTIVATE, OWNER_ROW_LOCKED, OWNER_SELF_EDIT_REFUSED } from '@embudo/contracts/http/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { CopyButton } from '../../shared/ui/CopyButton.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { Switch } from '../../shared/ui/Switch.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { useSession } from '../auth/use-session.ts';
import { roleLabels } from '../shell/role-labels.ts';
import { userInitials } from '../shell/user-initials.ts';
import { teamApi } from './team.api.ts';
import { TeamMemberForm, type TeamMemberDraft } from './TeamMemberForm.tsx';

const usersKey = ['team-users'] as const;

type View = { kind: 'list' } | { kind: 'invite' } | { kind: 'edit'; user: SessionUser };

function lastAccess(at: string | null) {
  return at ? new Date(at).toLocaleString('es', { dateStyle: 'medium', timeStyle: 'short' }) : 'Nunca';
}

/** Shown once after an invite or a reset: nobody can read it again later. */
function TemporaryPassword({ email, tempPassword, onHide }: { email: string; tempPassword: string; onHide: () => void }) {
  return (
    <div role="status" className="mb-4 rounded-xl border border-emerald-200 bg-emerald-50 p-4">
      <p className="text-sm font-semibold text-emerald-900">Contraseña temporal para {email}</p>
      <div className="mt-2 flex items-center gap-2">
        <code
          data-testid="temp-password"
          className="flex-1 rounded-lg bg-white px-3 py-2 font-mono text-base font-semibold tracking-wide text-slate-900 ring-1 ring-emerald-200 select-all"
        >
          {tempPassword}
        </code>
        <CopyButton text={tempPassword} size="sm" />
      </div>
      <p className="mt-2 text-xs text-emerald-800">Compártela con la persona: solo se muestra esta vez y deberá cambiarla al iniciar sesión.</p>
      <button type="button" onClick={onHide} className="mt-2 text-xs font-medium text-emerald-800 underline">
        Ocultar
      </button>
    </div>
  );
}

/** Administrar Equipo: the team list, and the invite/edit form (spec 01 §2 Team dialog). */
export function TeamDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const { session, updateUser } = useSession();
  const me = session?.user;
  const [view, setView] = useState<View>({ kind: 'list' });
  const [revealed, setRevealed] = useState<{ email: string; tempPassword: string } | null>(null);
  const [confirmingReset, setConfirmingReset] = useState<string | null>(null);
  const users = useQuery({ queryKey: usersKey, queryFn: teamApi.list });

  useEffect(() => {
    if (users.isError) toast.error(errorMessageOr(users.error, 'Error al cargar la lista de usuarios.'));
  }, [users.isError, users.error, toast]);

  const replaceInList = (updated: SessionUser) => {
    queryClient.setQueryData<SessionUser[]>(usersKey, (list) => list?.map((user) => (user.id === updated.id ? updated : user)));
    if (updated.id === me?.id) updateUser(updated);
  };

  const save = useMutation({
    mutationFn: async (draft: TeamMemberDraft) => {
      if (view.kind === 'edit') return { user: await teamApi.update(view.user.id, draft), tempPassword: null };
      const { role } = draft;
      // The invite form never offers the owner role; a company has exactly one owner.
      if (role === 'owner') throw new Error('Rol inválido.');
      return teamApi.invite({ ...draft, role, is_active: true });
    },
    onSuccess: ({ user, tempPassword }) => {
      if (tempPassword) {
        queryClient.setQueryData<SessionUser[]>(usersKey, (list) => [...(list ?? []), user]);
        setRevealed({ email: user.email, tempPassword });
        toast.success('Usuario invitado exitosamente.');
      } else {
        replaceInList(user);
        toast.success('Usuario actualizado exitosamente.');
      }
      setView({ kind: 'list' });
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al guardar el usuario.')),
  });

  const toggleActive = useMutation({
    mutationFn: ({ user, active }: { user: SessionUser; active: boolean }) => teamApi.setActive(user.id, active),
    onSuccess: (updated) => {
      replaceInList(updated);
      toast.success(`Estado de ${updated.name} actualizado.`);
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al actualizar el estado.')),
  });

  const reset = useMutation({
    mutationFn: (user: SessionUser) => teamApi.resetPassword(user.id),
    onSuccess: ({ tempPassword }, user) => {
      setConfirmingReset(null);
      setRevealed({ email: user.email, tempPassword });
      toast.success(`Contraseña reseteada para ${user.email}.`);
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al resetear la contraseña.')),
  });

  // The owner's row cannot be toggled, edited or reset, not even by the owner (spec 01 §4, §6); nobody switches themself off.
  const toggleBlockedBecause = (user: SessionUser) => {
    if (user.role === 'owner') return user.id === me?.id ? OWNER_CANNOT_DEACTIVATE : OWNER_ROW_LOCKED;
    return user.id === me?.id ? 'No puedes desactivarte a ti mismo.' : null;
  };
  const editBlockedBecause = (user: SessionUser) => {
    if (user.role !== 'owner') return null;
    return user.id === me?.id ? OWNER_SELF_EDIT_REFUSED : OWNER_ROW_LOCKED;
  };

  const title = view.kind === 'invite' ? 'Invitar Usuario' : view.kind === 'edit' ? 'Editar Usuario' : 'Administrar Equipo';

  return (
    <Modal
      title={title}
      size="lg"
      onClose={onClose}
      footer={
        view.kind === 'list' ? (
          <>
            <Button variant="secondary" onClick={onClose}>
              Cerrar
            </Button>
            <Button onClick={() => setView({ kind: 'invite' })}>+ Invitar Usuario</Button>
          </>
        ) : undefined
      }
    >
      {view.kind !== 'list' ? (
        <TeamMemberForm
          key={view.kind === 'edit' ? view.user.id : 'invite'}
          editing={view.kind === 'edit' ? view.user : undefined}
          saving={save.isPending}
          onSubmit={(draft) => save.mutate(draft)}
          onBack={() => setView({ kind: 'list' })}
        />
      ) : (
        <>
          {revealed && <TemporaryPassword {...revealed} onHide={() => setRevealed(null)} />}
          {users.isPending ? (
            <div className="flex justify-center py-10 text-emerald-600" aria-label="Cargando usuarios">
              <Spinner className="size-6" />
            </div>
          ) : users.isError ? (
            <p role="alert" className="py-8 text-center text-sm text-rose-600">
              {errorMessageOr(users.error, 'Error al cargar la lista de usuarios.')}
            </p>
          ) : (
            <div className="-mx-2 overflow-x-auto">
              <table className="w-full min-w-[640px] text-left text-sm">
                <thead className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
                  <tr>
                    <th className="px-2 py-2">Usuario</th>
                    <th className="px-2 py-2">Rol</th>
                    <th className="px-2 py-2">Estado</th>
                    <th className="px-2 py-2">Último Acceso</th>
                    <th className="px-2 py-2 text-right">Acciones</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {users.data.map((user) => (
                    <tr key={user.id} data-testid="team-row" data-email={user.email}>
                      <td className="px-2 py-3">
                        <div className="flex items-center gap-3">
                          <span
                            className="grid size-9 shrink-0 place-items-center rounded-full bg-gradient-to-br from-emerald-500 to-teal-600 text-xs font-semibold text-white"
                            aria-hidden="true"
                          >
                            {userInitials(user.name)}
                          </span>
                          <div className="min-w-0">
                            <p className="truncate font-medium text-slate-900">{user.name}</p>
                            <p className="truncate text-xs text-slate-500">{user.email}</p>
                          </div>
                        </div>
                      </td>
                      <td className="px-2 py-3 text-slate-700">{roleLabels[user.role]}</td>
                      <td className="px-2 py-3">
                        <Switch
                          checked={user.is_active}
                          label={`Estado de ${user.name}`}
                          title={toggleBlockedBecause(user) ?? (user.is_active ? 'Activo' : 'Inactivo')}
                          disabled={toggleBlockedBecause(user) !== null || (toggleActive.isPending && toggleActive.variables?.user.id === user.id)}
                          onChange={(active) => toggleActive.mutate({ user, active })}
                        />
                      </td>
                      <td className="px-2 py-3 whitespace-nowrap text-slate-600">{lastAccess(user.last_login_at)}</td>
                      <td className="px-2 py-3">
                        {confirmingReset === user.id ? (
                          <div className="flex items-center justify-end gap-2">
                            <span className="text-xs text-slate-600">¿Resetear contraseña?</span>
                            <Button size="sm" variant="danger" loading={reset.isPending} onClick={() => reset.mutate(user)}>
                              Resetear
                            </Button>
                            <Button size="sm" variant="secondary" onClick={() => setConfirmingReset(null)}>
                              Cancelar
                            </Button>
                          </div>
                        ) : (
                          <div className="flex items-center justify-end gap-1">
                            <button
                              type="button"
                              aria-label={`Editar ${user.name}`}
                              title={editBlockedBecause(user) ?? 'Editar'}
                              disabled={editBlockedBecause(user) !== null}
                              onClick={() => setView({ kind: 'edit', user })}
                              className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent"
                            >
                              <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
                                <path d="M4 20h4L19 9l-4-4L4 16v4Zm9-13 4 4" strokeLinecap="round" strokeLinejoin="round" />
                              </svg>
                            </button>
                            <button
                              type="button"
                              aria-label={`Resetear contraseña de ${user.name}`}
                              title={user.role === 'owner' ? 'No se puede resetear la contraseña del propietario.' : 'Resetear contraseña'}
                              disabled={user.role === 'owner'}
                              onClick={() => setConfirmingReset(user.id)}
                              className="rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:cursor-not-allowed disabled:text-slate-300 disabled:hover:bg-transparent"
                            >
                              <svg viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
                                <path d="M15 7a4 4 0 1 1-3.5 6H9v2H7v2H4v-3l5.5-5.5A4 4 0 0 1 15 7Zm1 3h.01" strokeLinecap="round" strokeLinejoin="round" />
                              </svg>
                            </button>
                          </div>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </Modal>
  );
}
