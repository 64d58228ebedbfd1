import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { TextField } from '../../shared/ui/TextField.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { adminApi, adminKeys, type GupshupSettings, type Pricing } from './admin.api.ts';
import { pricingFromForm, type PricingForm } from './admin-format.ts';
import { AdminPageHeader, ErrorBlock, LoadingBlock } from './AdminPageHeader.tsx';

const pricingFields: ReadonlyArray<{ key: keyof Pricing; label: string; hint: string }> = [
  { key: 'price_per_sent_message', label: 'Precio por mensaje enviado', hint: 'Cada mensaje de sesión enviado.' },
  { key: 'price_per_received_message', label: 'Precio por mensaje recibido', hint: 'Cada mensaje recibido de un contacto.' },
  { key: 'price_template_marketing', label: 'Precio por plantilla de marketing', hint: 'Cada envío de una plantilla MARKETING.' },
  { key: 'price_template_utility', label: 'Precio por plantilla de utilidad', hint: 'Cada envío de una plantilla UTILITY.' },
  { key: 'price_per_1000_ai_tokens', label: 'Precio por 1.000 tokens de IA', hint: 'Tokens del modelo de IA (entrada + salida).' },
];

const toForm = (pricing: Pricing): PricingForm => ({
  price_per_sent_message: String(pricing.price_per_sent_message ?? 0),
  price_per_received_message: String(pricing.price_per_received_message ?? 0),
  price_template_marketing: String(pricing.price_template_marketing ?? 0),
  price_template_utility: String(pricing.price_template_utility ?? 0),
  price_per_1000_ai_tokens: String(pricing.price_per_1000_ai_tokens ?? 0),
});

function Card({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200">
      <header className="border-b border-slate-100 px-6 py-4">
        <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
        <p className="mt-0.5 text-sm text-slate-500">{description}</p>
      </header>
      <div className="px-6 py-5">{children}</div>
    </section>
  );
}

function PricingFormView({ initial }: { initial: Pricing }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [values, setValues] = useState<PricingForm>(() => toForm(initial));
  const save = useMutation({
    mutationFn: (pricing: Pricing) => adminApi.savePricing(pricing),
    onSuccess: (saved, sent) => {
      const pricing = saved ?? sent;
      setValues(toForm(pricing));
      queryClient.setQueryData(adminKeys.pricing, pricing);
      void queryClient.invalidateQueries({ queryKey: adminKeys.tenants });
      toast.success('Pricing settings saved!');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Failed to save pricing settings.')),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(pricingFromForm(values));
  };
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <div className="grid gap-5 sm:grid-cols-2">
        {pricingFields.map((field) => (
          <TextField
            key={field.key}
            label={field.label}
            hint={field.hint}
            type="number"
            inputMode="decimal"
            step="0.0001"
            min="0"
            placeholder="0"
            value={values[field.key]}
            onChange={(event) => setValues((current) => ({ ...current, [field.key]: event.target.value }))}
          />
        ))}
      </div>
      <div className="flex justify-end">
        <Button type="submit" loading={save.isPending}>
          Guardar precios
        </Button>
      </div>
    </form>
  );
}

function ProviderFormView({ initial }: { initial: GupshupSettings }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [values, setValues] = useState({ apiKey: initial.apiKey ?? '', partnerEmail: initial.partnerEmail ?? '', partnerPassword: '' });
  const [passwordSet, setPasswordSet] = useState(Boolean(initial.partnerPasswordSet));
  const save = useMutation({
    mutationFn: () => adminApi.saveGupshup(values),
    onSuccess: (saved) => {
      if (saved) {
        setValues({ apiKey: saved.apiKey ?? '', partnerEmail: saved.partnerEmail ?? '', partnerPassword: '' });
        setPasswordSet(Boolean(saved.partnerPasswordSet));
        queryClient.setQueryData(adminKeys.gupshup, saved);
      } else {
        setValues((current) => ({ ...current, partnerPassword: '' }));
      }
      toast.success('Settings saved!');
    },
    onError: (error) => toast.error(errorMessageOr(error, 'Failed to save settings.')),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value }));
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <TextField
        label="API Key"
        autoComplete="off"
        spellCheck={false}
        value={values.apiKey}
        onChange={set('apiKey')}
        hint={initial.apiKeySet || values.apiKey.startsWith('••••') ? 'La clave guardada se muestra enmascarada; déjala así para conservarla.' : undefined}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField label="Partner Email" type="email" autoComplete="off" value={values.partnerEmail} onChange={set('partnerEmail')} />
        <TextField
          label="Partner Password"
          type="password"
          autoComplete="new-password"
          value={values.partnerPassword}
          onChange={set('partnerPassword')}
          placeholder={passwordSet ? '••••••••' : ''}
          hint="Déjala en blanco para mantener la contraseña guardada."
        />
      </div>
      <div className="flex justify-end">
        <Button type="submit" loading={save.isPending}>
          Guardar configuración
        </Button>
      </div>
    </form>
  );
}

/** /admin/settings: global message pricing and the provider credentials (spec 02 §2 Admin area). */
export function AdminSettingsPage() {
  const pricing = useQuery({ queryKey: adminKeys.pricing, queryFn: adminApi.pricing, staleTime: Infinity });
  const gupshup = useQuery({ queryKey: adminKeys.gupshup, queryFn: adminApi.gupshup, staleTime: Infinity });
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <AdminPageHeader title="Settings" subtitle="Precios globales y credenciales del proveedor de mensajería." />
      <Card title="Precios globales" description="Se aplican al consumo de todas las empresas desde el momento en que se guardan.">
        {pricing.isPending && <LoadingBlock />}
        {pricing.isError && <ErrorBlock message="Error al cargar los precios." onRetry={() => void pricing.refetch()} />}
        {pricing.data && <PricingFormView initial={pricing.data} />}
      </Card>
      <Card title="Configuración de API de Gupshup" description="Credenciales del proveedor. Se guardan cifradas y nunca se muestran completas.">
        {gupshup.isPending && <LoadingBlock />}
        {gupshup.isError && <ErrorBlock message="Error al cargar la configuración." onRetry={() => void gupshup.refetch()} />}
        {gupshup.data && <ProviderFormView initial={gupshup.data} />}
      </Card>
    </div>
  );
}
