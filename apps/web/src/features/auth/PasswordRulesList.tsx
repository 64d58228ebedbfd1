import { passwordRules } from '@embudo/contracts/http/auth';

/**
 * The four password rules with a live met/unmet mark for the typed password. The field points here with
 * aria-describedby; the list is named without the word "Contraseña", so looking up that label finds the field alone.
 */
export function PasswordRulesList({ password, id }: { password: string; id?: string }) {
  return (
    <ul id={id} aria-label="Requisitos de seguridad" className="grid grid-cols-1 gap-1.5 sm:grid-cols-2">
      {passwordRules.map((rule) => {
        const met = rule.test(password);
        return (
          <li
            key={rule.id}
            data-rule={rule.id}
            data-met={met}
            className={`flex items-center gap-2 text-xs transition-colors ${met ? 'text-emerald-700' : 'text-slate-500'}`}
          >
            <span
              className={`grid size-4 shrink-0 place-items-center rounded-full ${met ? 'bg-emerald-600 text-white' : 'bg-slate-200 text-slate-400'}`}
              aria-hidden="true"
            >
              <svg viewBox="0 0 12 12" className="size-2.5" fill="none" stroke="currentColor" strokeWidth="2">
                {met ? (
                  <path d="m2.5 6.2 2.2 2.2 4.8-4.8" strokeLinecap="round" strokeLinejoin="round" />
                ) : (
                  <circle cx="6" cy="6" r="1.2" fill="currentColor" stroke="none" />
                )}
              </svg>
            </span>
            <span>{rule.label}</span>
            <span className="sr-only">{met ? '(cumplido)' : '(pendiente)'}</span>
          </li>
        );
      })}
    </ul>
  );
}
