import { registerRequest, type RegisterRequest } from '@embudo/contracts/http/auth';
import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { firstErrorByField } from '../../shared/forms/first-error-by-field.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { FormAlert } from '../../shared/ui/FormAlert.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { authApi } from './auth.api.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { PasswordRulesList } from './PasswordRulesList.tsx';
import { sessionHomePath } from './session-home-path.ts';
import { SlugStatus } from './SlugStatus.tsx';
import { slugFromCompanyName } from './slug-from-company-name.ts';
import { useSession } from './use-session.ts';
import { useSlugAvailability } from './use-slug-availability.ts';

type RegisterForm = Omit<RegisterRequest, 'timezone'>;
type Field = keyof RegisterForm;

const emptyForm: RegisterForm = { companyName: '', companySlug: '', userName: '', userEmail: '', userPassword: '' };

function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

export function RegisterPage() {
  const navigate = useNavigate();
  const { signIn } = useSession();
  const rulesId = useId();
  const [values, setValues] = useState<RegisterForm>(emptyForm);
  const [slugEditedByHand, setSlugEditedByHand] = useState(false);
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const availability = useSlugAvailability(values.companySlug);

  const register = useMutation({
    mutationFn: (payload: RegisterRequest) => authApi.register(payload),
    onSuccess: (session) => {
      signIn(session);
      void navigate(sessionHomePath(session), { replace: true });
    },
  });

  const parsed = registerRequest.safeParse(values);
  const allErrors = firstErrorByField(parsed.error);
  const shown = (field: Field) => (submitted || touched[field] ? allErrors[field] : undefined);
  const slugError = submitted || touched.companySlug || touched.companyName ? allErrors.companySlug : undefined;

  const touch = (field: Field) => () => setTouched((current) => ({ ...current, [field]: true }));
  const set = (field: Field) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));

  const onCompanyNameChange = (event: { target: { value: string } }) => {
    const companyName = event.target.value;
    setValues((current) => ({ ...current, companyName, companySlug: slugEditedByHand ? current.companySlug : slugFromCompanyName(companyName) }));
  };

  const onSlugChange = (event: { target: { value: string } }) => {
    setSlugEditedByHand(true);
    setValues((current) => ({ ...current, companySlug: event.target.value.toLowerCase() }));
  };

  const canSubmit = availability === 'available' && !register.isPending;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (!parsed.success || availability !== 'available') return;
    register.mutate({ ...parsed.data, timezone: browserTimeZone() });
  };

  return (
    <AuthLayout
      title="Registra tu empresa"
      subtitle="Empieza tu prueba gratuita de 7 días. Sin tarjeta de crédito."
      footer={
        <>
          ¿Ya tienes una cuenta?{' '}
          <Link to="/login" className="font-semibold text-emerald-700 hover:text-emerald-800">
            Inicia sesión
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-5">
        <FormAlert message={register.isError ? errorMessageOr(register.error, 'Registration failed') : null} />
        <TextField
          label="Nombre de empresa"
          autoComplete="organization"
          value={values.companyName}
          onChange={onCompanyNameChange}
          onBlur={touch('companyName')}
          error={shown('companyName')}
          placeholder="Mi Empresa S.A."
        />
        <TextField
          label="Slug de empresa"
          autoCapitalize="none"
          spellCheck={false}
          value={values.companySlug}
          onChange={onSlugChange}
          onBlur={touch('companySlug')}
          error={slugError}
          placeholder="mi-empresa"
          adornment={<SlugStatus state={availability} />}
          hint={
            <>
              Tu panel estará en <span className="font-medium text-slate-700">/t/{values.companySlug || 'mi-empresa'}</span>
            </>
          }
        />
        <TextField
          label="Tu nombre"
          autoComplete="name"
          value={values.userName}
          onChange={set('userName')}
          onBlur={touch('userName')}
          error={shown('userName')}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={values.userEmail}
          onChange={set('userEmail')}
          onBlur={touch('userEmail')}
          error={shown('userEmail')}
          placeholder="tu@empresa.com"
        />
        <div className="space-y-3">
          <TextField
            label="Contraseña"
            type="password"
            autoComplete="new-password"
            value={values.userPassword}
            onChange={set('userPassword')}
            onBlur={touch('userPassword')}
            error={shown('userPassword')}
            aria-describedby={rulesId}
          />
          <PasswordRulesList id={rulesId} password={values.userPassword} />
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={!canSubmit} loading={register.isPending}>
          Crear cuenta
        </Button>
        <p className="text-center text-xs text-slate-500">Solo te tomará unos 2 minutos.</p>
      </form>
    </AuthLayout>
  );
}
