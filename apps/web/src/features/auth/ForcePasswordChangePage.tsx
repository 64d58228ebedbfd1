import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { BrandLogo } from '../../shared/ui/BrandLogo.tsx';
import { Button } from '../../shared/ui/Button.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { authApi } from './auth.api.ts';
import { forcedPasswordProblem } from './forced-password-problem.ts';
import { PasswordRulesList } from './PasswordRulesList.tsx';
import { useSession } from './use-session.ts';

/** A user holding a temporary password must replace it before using the app (spec 01 §2, §5). */
export function ForcePasswordChangePage() {
  const navigate = useNavigate();
  const toast = useToast();
  const { session, replaceToken, logout } = useSession();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const change = useMutation({
    mutationFn: (newPassword: string) => authApi.changePassword(newPassword),
    onSuccess: ({ token, user }) => {
      replaceToken(token, { ...user, force_password_change: false });
      void navigate(`/t/${session?.tenant.slug ?? ''}`, { replace: true });
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Ocurrió un error inesperado.')),
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = forcedPasswordProblem(password, confirmation);
    setProblem(found);
    if (!found) change.mutate(password);
  };

  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-gradient-to-b from-emerald-50 to-slate-50 px-4 py-12">
      <BrandLogo className="mb-8" />
      <main className="w-full max-w-md rounded-2xl bg-white p-8 shadow-xl shadow-slate-900/5 ring-1 ring-slate-200">
        <div className="mb-6 grid size-12 place-items-center rounded-xl bg-emerald-50 text-emerald-600">
          <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
            <rect x="4" y="10" width="16" height="10" rx="2" />
            <path d="M8 10V7a4 4 0 0 1 8 0v3" />
          </svg>
        </div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Crea tu nueva contraseña</h1>
        <p className="mt-1.5 text-sm text-slate-500">
          {session ? `Hola, ${session.user.name}. ` : ''}Tu contraseña es temporal: elige una nueva para continuar.
        </p>
        <form noValidate onSubmit={onSubmit} className="mt-7 space-y-5">
          <FormAlert message={problem} />
          <TextField
            label="Nueva contraseña"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
          <PasswordRulesList password={password} />
          <TextField
            label="Confirmar contraseña"
            type="password"
            autoComplete="new-password"
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
          />
          <Button type="submit" size="lg" className="w-full" loading={change.isPending}>
            Guardar contraseña
          </Button>
        </form>
      </main>
      <Link
        to="/login"
        onClick={(event) => {
          event.preventDefault();
          void logout();
        }}
        className="mt-6 text-sm font-medium text-slate-600 hover:text-slate-900"
      >
        Cerrar Sesión
      </Link>
    </div>
  );
}
