import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { adminApi, adminKeys } from './admin.api.ts';
import { formatCount } from './admin-format.ts';
import { AdminPageHeader, ErrorBlock, LoadingBlock } from './AdminPageHeader.tsx';
import { SilentCompaniesCard } from './AdminWhatsAppActivity.tsx';

function StatCard({ label, value, testId, accent, children }: { label: string; value: number; testId: string; accent: string; children?: ReactNode }) {
  return (
    <section aria-label={label} data-testid={testId} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center gap-3">
        <span className={`size-2.5 rounded-full ${accent}`} aria-hidden="true" />
        <h2 className="text-sm font-medium text-slate-500">{label}</h2>
      </div>
      <p className="mt-3 text-3xl font-bold tracking-tight text-slate-900" data-testid={`${testId}-value`}>
        {formatCount(value)}
      </p>
      {children}
    </section>
  );
}

/** /admin/dashboard: platform-wide figures (spec 02 §2 Admin area). */
export function AdminDashboardPage() {
  const stats = useQuery({ queryKey: adminKeys.stats, queryFn: adminApi.stats });

  return (
    <div className="mx-auto max-w-6xl">
      <AdminPageHeader title="Dashboard" subtitle="Resumen global de la plataforma." />
      {stats.isPending && <LoadingBlock />}
      {stats.isError && <ErrorBlock message="Error al cargar las estadísticas." onRetry={() => void stats.refetch()} />}
      {stats.data && (
        <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          <StatCard label="Total de empresas" value={stats.data.totalTenants} testId="stat-tenants" accent="bg-emerald-500" />
          <StatCard label="Total de usuarios" value={stats.data.totalUsers} testId="stat-users" accent="bg-sky-500" />
          <StatCard label="Conexiones activas" value={stats.data.activeConnections} testId="stat-connections" accent="bg-violet-500" />
          <StatCard label="Mensajes enviados este mes" value={stats.data.messagesSentThisMonth} testId="stat-messages" accent="bg-amber-500" />
          <StatCard label="Total de plantillas" value={stats.data.totalTemplates} testId="stat-templates" accent="bg-rose-500">
            <dl className="mt-3 flex gap-4 text-sm text-slate-600">
              <div className="flex gap-1.5">
                <dt>Utility:</dt>
                <dd className="font-semibold text-slate-900" data-testid="stat-templates-utility">
                  {formatCount(stats.data.utilityTemplates)}
                </dd>
              </div>
              <div className="flex gap-1.5">
                <dt>Marketing:</dt>
                <dd className="font-semibold text-slate-900" data-testid="stat-templates-marketing">
                  {formatCount(stats.data.marketingTemplates)}
                </dd>
              </div>
            </dl>
          </StatCard>
        </div>
      )}
      <SilentCompaniesCard />
    </div>
  );
}
