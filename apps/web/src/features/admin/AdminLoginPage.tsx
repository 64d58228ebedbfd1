import { adminLoginRequest } from '@embudo/contracts/http/admin';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { firstErrorByField } from '../../shared/forms/first-error-by-field.ts';
import { BrandLogo } from '../../shared/ui/BrandLogo.tsx';
import { Button } from '../../shared/ui/Button.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { adminApi } from './admin.api.ts';
import { useAdminSession } from './use-admin-session.ts';

/** Spec 02 §8: the fallback of a failed operator sign-in, shown above the server's own reason when it sent one. */
export const LOGIN_FAILED_MESSAGE = 'Login failed.';

function serverDetail(error: unknown): string | undefined {
  const message = errorMessageOr(error, LOGIN_FAILED_MESSAGE);
  return message === LOGIN_FAILED_MESSAGE ? undefined : message;
}

type LoginForm = { email: string; password: string };

function PasswordField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const id = useId();
  const errorId = `${id}-error`;
  const [visible, setVisible] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 block text-sm font-medium text-slate-700">
        Contraseña
      </label>
      <div className="relative">
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          autoComplete="current-password"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className={`block w-full rounded-lg border bg-white py-2.5 pr-11 pl-3 text-sm text-slate-900 shadow-sm outline-none transition focus:ring-4 ${
            error ? 'border-rose-400 focus:border-rose-500 focus:ring-rose-100' : 'border-slate-300 focus:border-emerald-500 focus:ring-emerald-100'
          }`}
        />
        <button
          type="button"
          onClick={() => setVisible((current) => !current)}
          aria-pressed={visible}
          title={visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}
          className="absolute inset-y-0 right-0 grid w-10 place-items-center rounded-r-lg text-slate-400 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-emerald-600"
        >
          {/* Named by its text, not aria-label: a label lookup for "Contraseña" must find the field alone. */}
          <span className="sr-only">{visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}</span>
          <svg viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.6" aria-hidden="true">
            <path d="M1.5 10S4.5 4 10 4s8.5 6 8.5 6-3 6-8.5 6-8.5-6-8.5-6Z" strokeLinejoin="round" />
            <circle cx="10" cy="10" r="2.5" />
            {visible && <path d="m3 3 14 14" strokeLinecap="round" />}
          </svg>
        </button>
      </div>
      {error && (
        <p id={errorId} className="mt-1.5 text-sm text-rose-600">
          {error}
        </p>
      )}
    </div>
  );
}

/** /admin/login: the platform operator's own sign-in (spec 02 §2 Admin area). */
export function AdminLoginPage() {
  const navigate = useNavigate();
  const { session, signIn } = useAdminSession();
  const [values, setValues] = useState<LoginForm>({ email: '', password: '' });
  const [submitted, setSubmitted] = useState(false);

  const login = useMutation({
    mutationFn: (payload: LoginForm) => adminApi.login(payload),
    onSuccess: (result) => {
      signIn({ token: result.token, user: result.user });
      void navigate('/admin/dashboard', { replace: true });
    },
  });

  const parsed = adminLoginRequest.safeParse(values);
  const errors = submitted ? firstErrorByField(parsed.error) : {};

  if (session && !login.isPending && !login.isSuccess) return <Navigate to="/admin/dashboard" replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (parsed.success) login.mutate(parsed.data);
  };

  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-900 px-4 py-12">
      <div className="pointer-events-none fixed inset-0 bg-[radial-gradient(ellipse_at_top,rgba(16,185,129,0.18),transparent_60%)]" aria-hidden="true" />
      <Link to="/" className="relative mb-8">
        <BrandLogo inverted />
      </Link>
      <main className="relative w-full max-w-md rounded-2xl bg-white p-8 shadow-2xl shadow-black/30">
        <p className="text-xs font-semibold tracking-wider text-emerald-600 uppercase">Panel de plataforma</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight text-slate-900">Admin Login</h1>
        <p className="mt-1.5 text-sm text-slate-500">Acceso exclusivo para operadores de Embudo.</p>
        <form noValidate onSubmit={onSubmit} className="mt-7 space-y-5">
          <FormAlert message={login.isError ? LOGIN_FAILED_MESSAGE : null} detail={login.isError ? serverDetail(login.error) : undefined} />
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            value={values.email}
            onChange={(event) => setValues((current) => ({ ...current, email: event.target.value }))}
            error={errors.email}
            placeholder="operador@embudo.com"
          />
          <PasswordField value={values.password} onChange={(password) => setValues((current) => ({ ...current, password }))} error={errors.password} />
          <Button type="submit" size="lg" className="w-full" loading={login.isPending}>
            Iniciar sesión
          </Button>
        </form>
      </main>
    </div>
  );
}
