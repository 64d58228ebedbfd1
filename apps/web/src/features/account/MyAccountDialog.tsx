import { PASSWORDS_DONT_MATCH } from '@embudo/contracts/http/auth';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { authApi } from '../auth/auth.api.ts';
import { useSession } from '../auth/use-session.ts';
import { PlanSummary } from './PlanSummary.tsx';
import { usersApi } from './users.api.ts';

/** Spec 01 §9: after a password change the user is signed out 2 seconds later. */
export const SIGN_OUT_AFTER_PASSWORD_CHANGE_MS = 2000;

export type AccountTab = 'profile' | 'password';

const tabs: Array<{ id: AccountTab; label: string }> = [
  { id: 'profile', label: 'Mi Perfil' },
  { id: 'password', label: 'Contraseña' },
];

function ProfileTab() {
  const toast = useToast();
  const { session, updateUser } = useSession();
  const user = session?.user;
  const [name, setName] = useState(user?.name ?? '');
  const trimmed = name.trim();

  const save = useMutation({
    mutationFn: () => usersApi.updateName(user?.id ?? '', trimmed),
    onSuccess: (updated) => {
      updateUser(updated);
      setName(updated.name);
      toast.success('Nombre actualizado exitosamente.');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al actualizar el nombre.')),
  });

  if (!user || !session) return null;
  const unchanged = trimmed === user.name;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (trimmed && !unchanged) save.mutate();
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <TextField label="Nombre" autoComplete="name" value={name} onChange={(event) => setName(event.target.value)} />
      <TextField label="Email" type="email" value={user.email} readOnly hint="El email no se puede cambiar." />
      <PlanSummary tenant={session.tenant} />
      <div className="flex justify-end">
        <Button type="submit" disabled={!trimmed || unchanged} loading={save.isPending}>
          Guardar cambios
        </Button>
      </div>
    </form>
  );
}

function PasswordTab({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const { replaceToken, logout } = useSession();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const change = useMutation({
    mutationFn: () => authApi.changePassword(password),
    onSuccess: ({ token, user }) => {
      // The server revoked every session and handed back a fresh one, used for the sign-out call.
      replaceToken(token, user);
      toast.success('Contraseña actualizada exitosamente. Se cerrará la sesión por seguridad.');
      onClose();
      setTimeout(() => void logout(), SIGN_OUT_AFTER_PASSWORD_CHANGE_MS);
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Error al cambiar la contraseña.')),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) return;
    const found = password !== confirmation ? PASSWORDS_DONT_MATCH : null;
    setProblem(found);
    if (!found) change.mutate();
  };

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <FormAlert message={problem} />
      <TextField label="Nueva contraseña" type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
      <TextField
        label="Confirmar contraseña"
        type="password"
        autoComplete="new-password"
        value={confirmation}
        onChange={(event) => setConfirmation(event.target.value)}
      />
      <p className="text-xs text-slate-500">Por seguridad, se cerrará tu sesión en todos los dispositivos después del cambio.</p>
      <div className="flex justify-end">
        <Button type="submit" disabled={!password} loading={change.isPending}>
          Cambiar contraseña
        </Button>
      </div>
    </form>
  );
}

/** My Account (Mi Perfil / Configuración): edit the name, change the password. */
export function MyAccountDialog({ onClose, initialTab = 'profile' }: { onClose: () => void; initialTab?: AccountTab }) {
  const [tab, setTab] = useState<AccountTab>(initialTab);
  const baseId = useId();

  return (
    <Modal title="Mi Cuenta" onClose={onClose}>
      <div role="tablist" aria-label="Mi Cuenta" className="mb-6 flex gap-1 rounded-xl bg-slate-100 p-1">
        {tabs.map(({ id, label }) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`${baseId}-${id}-tab`}
            aria-selected={tab === id}
            aria-controls={`${baseId}-${id}-panel`}
            onClick={() => setTab(id)}
            className={`flex-1 rounded-lg px-3 py-2 text-sm font-medium transition ${
              tab === id ? 'bg-white text-slate-900 shadow-sm' : 'text-slate-500 hover:text-slate-700'
            }`}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${baseId}-${tab}-panel`} aria-labelledby={`${baseId}-${tab}-tab`}>
        {tab === 'profile' ? <ProfileTab /> : <PasswordTab onClose={onClose} />}
      </div>
    </Modal>
  );
}
