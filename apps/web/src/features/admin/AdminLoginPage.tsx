import { Link } from 'react-router';
import { BrandLogo } from '../../shared/ui/BrandLogo.tsx';

/** Placeholder: the platform-operator area arrives with the admin issue. */
export function AdminLoginPage() {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center bg-slate-900 px-4 text-center">
      <BrandLogo inverted className="mb-8" />
      <main className="w-full max-w-md rounded-2xl bg-slate-800 p-8 ring-1 ring-white/10">
        <h1 className="text-2xl font-bold text-white">Admin</h1>
        <p className="mt-3 text-sm text-slate-300">El área de operadores de la plataforma estará disponible próximamente.</p>
        <Link to="/" className="mt-6 inline-block text-sm font-medium text-emerald-400 hover:text-emerald-300">
          Volver al inicio
        </Link>
      </main>
    </div>
  );
}
