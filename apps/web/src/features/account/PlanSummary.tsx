import type { SessionTenant } from '@embudo/contracts/http/auth';
import { planNames } from '@embudo/contracts/http/plans';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the trial means today: days left, or that it ended (README "Plans and trial"). */
export function trialStatus(trialEndsAt: string | null, now: Date): { ended: boolean; text: string } | null {
  if (!trialEndsAt) return null;
  const end = new Date(trialEndsAt);
  const date = end.toLocaleDateString('es', { day: 'numeric', month: 'long', year: 'numeric' });
  if (end.getTime() <= now.getTime()) {
    return {
      ended: true,
      text: `Tu prueba gratuita terminó el ${date}. Tu cuenta sigue funcionando con su plan; para contratarlo escribe a soporte (la facturación en línea llegará pronto).`,
    };
  }
  const days = Math.ceil((end.getTime() - now.getTime()) / DAY_MS);
  return { ended: false, text: `Prueba gratuita hasta el ${date} (${days === 1 ? 'queda 1 día' : `quedan ${days} días`}).` };
}

/** The company's plan and trial, in the account dialog. */
export function PlanSummary({ tenant, now = new Date() }: { tenant: SessionTenant; now?: Date }) {
  const trial = trialStatus(tenant.trial_ends_at, now);
  return (
    <section aria-label="Plan" className="rounded-xl bg-slate-50 p-4 text-sm ring-1 ring-slate-200">
      <p className="text-slate-600">
        {tenant.name} · Plan{' '}
        <strong data-testid="plan-name" className="text-slate-900">
          {planNames[tenant.subscription_plan]}
        </strong>
      </p>
      {trial && (
        <p data-testid="trial-status" className={`mt-1 ${trial.ended ? 'text-amber-700' : 'text-slate-600'}`}>
          {trial.text}
        </p>
      )}
    </section>
  );
}
