import type { Role, SessionUser } from '@embudo/contracts/http/auth';
import { ALL_FUNNELS_ROLES_NOTE, EMAIL_INVALID, EMAIL_LOCKED, EMAIL_REQUIRED, NAME_REQUIRED, OWNER_ROLE_LOCKED } from '@embudo/contracts/http/users';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { roleLabels } from '../shell/role-labels.ts';
import { teamApi } from './team.api.ts';

export interface TeamMemberDraft {
  name: string;
  email: string;
  role: Role;
  funnelIds: string[];
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const selectClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100';
const seesAllFunnels = (role: Role) => role === 'owner' || role === 'admin';

interface TeamMemberFormProps {
  /** The member being edited; absent when inviting. */
  editing?: SessionUser;
  saving: boolean;
  onSubmit: (draft: TeamMemberDraft) => void;
  onBack: () => void;
}

/** Invitar Usuario / Editar Usuario (spec 01 §2 Team dialog, §5 Team form). */
export function TeamMemberForm({ editing, saving, onSubmit, onBack }: TeamMemberFormProps) {
  const toast = useToast();
  const id = useId();
  const [name, setName] = useState(editing?.name ?? '');
  const [email, setEmail] = useState(editing?.email ?? '');
  const [role, setRole] = useState<Role>(editing?.role ?? 'agent');
  const [funnelIds, setFunnelIds] = useState<string[]>(editing && !seesAllFunnels(editing.role) ? editing.funnel_access : []);
  const [submitted, setSubmitted] = useState(false);
  const funnels = useQuery({ queryKey: ['team-funnels'], queryFn: teamApi.funnels });

  useEffect(() => {
    if (funnels.isError) toast.error(errorMessageOr(funnels.error, 'No se pudieron cargar los funnels.'));
  }, [funnels.isError, funnels.error, toast]);

  const editingOwner = editing?.role === 'owner';
  const roleChoices: Role[] = editingOwner ? ['owner', 'agent', 'admin', 'viewer'] : ['agent', 'admin', 'viewer'];
  const allFunnels = seesAllFunnels(role);

  const problems = {
    name: !name.trim() ? NAME_REQUIRED : null,
    email: editing ? null : !email.trim() ? EMAIL_REQUIRED : !EMAIL_PATTERN.test(email.trim()) ? EMAIL_INVALID : null,
    role: editingOwner && role !== 'owner' ? OWNER_ROLE_LOCKED : null,
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (problems.name || problems.email || problems.role) return;
    onSubmit({ name: name.trim(), email: email.trim().toLowerCase(), role, funnelIds: allFunnels ? [] : funnelIds });
  };

  const toggleFunnel = (funnelId: string, checked: boolean) =>
    setFunnelIds((current) => (checked ? [...current, funnelId] : current.filter((idInList) => idInList !== funnelId)));

  return (
    <form noValidate onSubmit={submit} className="space-y-5" aria-label={editing ? 'Editar Usuario' : 'Invitar Usuario'}>
      <div>
        <Button variant="ghost" size="sm" onClick={onBack} className="-ml-3">
          <span aria-hidden="true">← </span>Volver a la Lista
        </Button>
      </div>
      <TextField label="Nombre" value={name} onChange={(event) => setName(event.target.value)} error={submitted ? problems.name : null} autoComplete="off" />
      <TextField
        label="Email"
        type="email"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
        readOnly={Boolean(editing)}
        hint={editing ? EMAIL_LOCKED : undefined}
        error={submitted ? problems.email : null}
        autoComplete="off"
      />
      <div>
        <label htmlFor={`${id}-role`} className="mb-1.5 block text-sm font-medium text-slate-700">
          Rol
        </label>
        <select
          id={`${id}-role`}
          value={role}
          onChange={(event) => setRole(event.target.value as Role)}
          className={selectClass}
          aria-invalid={submitted && problems.role ? true : undefined}
        >
          {roleChoices.map((choice) => (
            <option key={choice} value={choice}>
              {roleLabels[choice]}
            </option>
          ))}
        </select>
        {submitted && problems.role && <p className="mt-1.5 text-sm text-rose-600">{problems.role}</p>}
      </div>
      <fieldset>
        <legend className="mb-1.5 block text-sm font-medium text-slate-700">Acceso a funnels</legend>
        {allFunnels && <p className="mb-2 text-xs text-slate-500">{ALL_FUNNELS_ROLES_NOTE}</p>}
        <div data-testid="funnel-access-list" className="max-h-[250px] space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-2">
          {funnels.isPending && (
            <div className="flex justify-center py-3 text-slate-400">
              <Spinner />
            </div>
          )}
          {funnels.data?.length === 0 && <p className="px-1 py-2 text-sm text-slate-500">Aún no hay funnels.</p>}
          {funnels.data?.map((funnel) => (
            <label
              key={funnel.id}
              className={`flex items-center gap-2 rounded-md px-2 py-1.5 text-sm ${allFunnels ? 'text-slate-400' : 'text-slate-700 hover:bg-slate-50'}`}
            >
              <input
                type="checkbox"
                className="size-4 accent-emerald-600"
                checked={allFunnels || funnelIds.includes(funnel.id)}
                disabled={allFunnels}
                onChange={(event) => toggleFunnel(funnel.id, event.target.checked)}
              />
              {funnel.name}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex justify-end gap-3">
        <Button variant="secondary" onClick={onBack}>
          Cancelar
        </Button>
        <Button type="submit" loading={saving}>
          {editing ? 'Guardar cambios' : 'Invitar Usuario'}
        </Button>
      </div>
    </form>
  );
}
