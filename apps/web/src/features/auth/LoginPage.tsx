import { loginRequest, type LoginRequest } from '@embudo/contracts/http/auth';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { firstErrorByField } from '../../shared/forms/first-error-by-field.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { authApi } from './auth.api.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { sessionHomePath } from './session-home-path.ts';
import { useSession } from './use-session.ts';

type LoginForm = { email: string; password: string; tenantSlug: string };

export function LoginPage() {
  const navigate = useNavigate();
  const { signIn } = useSession();
  const [values, setValues] = useState<LoginForm>({ email: '', password: '', tenantSlug: '' });
  const [submitted, setSubmitted] = useState(false);

  const login = useMutation({
    mutationFn: (payload: LoginRequest) => authApi.login(payload),
    onSuccess: (session) => {
      signIn(session);
      void navigate(sessionHomePath(session), { replace: true });
    },
  });

  const parsed = loginRequest.safeParse(values);
  const errors = submitted ? firstErrorByField(parsed.error) : {};

  const set = (field: keyof LoginForm) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    // The contract schema trims and lowercases the slug.
    if (parsed.success) login.mutate(parsed.data);
  };

  return (
    <AuthLayout
      title="Iniciar Sesión"
      subtitle="Accede al panel de tu empresa."
      footer={
        <>
          ¿Tu empresa aún no usa Embudo?{' '}
          <Link to="/register" className="font-semibold text-emerald-700 hover:text-emerald-800">
            Registra tu empresa
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <FormAlert message={login.isError ? errorMessageOr(login.error, 'Login failed') : null} />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={errors.email}
          placeholder="tu@empresa.com"
        />
        <TextField
          label="Contraseña"
          type="password"
          autoComplete="current-password"
          value={values.password}
          onChange={set('password')}
          error={errors.password}
        />
        <TextField
          label="Slug de empresa"
          autoComplete="organization"
          autoCapitalize="none"
          spellCheck={false}
          value={values.tenantSlug}
          onChange={set('tenantSlug')}
          error={errors.tenantSlug}
          placeholder="mi-empresa"
          hint="El identificador de tu empresa, el que aparece en la dirección /t/mi-empresa."
        />
        <Button type="submit" size="lg" className="w-full" loading={login.isPending}>
          Iniciar Sesión
        </Button>
      </form>
    </AuthLayout>
  );
}
