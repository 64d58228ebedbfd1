import type { ReactNode } from 'react';
import { Button } from '../../shared/ui/Button.tsx';
import { formatCost } from './agenda-format.ts';
import type { ProfessionalDto, ServiceDto } from './agenda.api.ts';
import { professionalColorStyles } from './professional-colors.ts';
import { TimeZoneControl } from './TimeZoneControl.tsx';

interface AgendaSidebarProps {
  professionals: ProfessionalDto[];
  services: ServiceDto[];
  timezone: string;
  /** Owners and admins manage professionals, services and availability. */
  canManage: boolean;
  canChangeTimeZone: boolean;
  onAddProfessional: () => void;
  onEditProfessional: (professional: ProfessionalDto) => void;
  onEditAvailability: (professional: ProfessionalDto) => void;
  onAddService: () => void;
  onEditService: (service: ServiceDto) => void;
}

function IconButton({ label, onClick, children }: { label: string; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" aria-label={label} title={label} onClick={onClick} className="rounded-md p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700">
      <svg viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
        {children}
      </svg>
    </button>
  );
}

const clockIcon = (
  <>
    <circle cx="10" cy="10" r="7" />
    <path d="M10 6v4l2.5 2" strokeLinecap="round" />
  </>
);
const pencilIcon = <path d="M13.5 3.5 16.5 6.5 7 16H4v-3l9.5-9.5Z" strokeLinejoin="round" />;

function Section({ title, onAdd, canAdd, children }: { title: string; onAdd: () => void; canAdd: boolean; children: ReactNode }) {
  const headingId = `agenda-${title.toLowerCase()}`;
  return (
    <section aria-labelledby={headingId}>
      <div className="mb-2 flex items-center justify-between">
        <h2 id={headingId} className="text-sm font-semibold text-slate-900">
          {title}
        </h2>
        {canAdd && (
          <Button size="sm" variant="secondary" onClick={onAdd}>
            Añadir
          </Button>
        )}
      </div>
      {children}
    </section>
  );
}

/** Spec 02 §2 Agenda sidebar: Profesionales (colour dot, name, availability, edit, Añadir) and Servicios (name, cost with 2 decimals, edit, Añadir). */
export function AgendaSidebar(props: AgendaSidebarProps) {
  const { professionals, services, canManage } = props;
  return (
    <aside className="flex w-full shrink-0 flex-col gap-6 overflow-y-auto border-b border-slate-200 bg-white p-4 lg:w-72 lg:border-r lg:border-b-0">
      <Section title="Profesionales" onAdd={props.onAddProfessional} canAdd={canManage}>
        {professionals.length === 0 ? (
          <p className="text-sm text-slate-500">Aún no hay profesionales.</p>
        ) : (
          <ul className="space-y-1">
            {professionals.map((professional) => (
              <li key={professional.id} data-testid="professional-row" className="flex items-center gap-2 rounded-lg px-2 py-1.5 hover:bg-slate-50">
                <span className={`size-3 shrink-0 rounded-full ${professionalColorStyles[professional.color].dot}`} aria-hidden="true" />
                <span className="min-w-0 flex-1 truncate text-sm text-slate-800">{professional.name}</span>
                {canManage && (
                  <>
                    <IconButton label={`Disponibilidad de ${professional.name}`} onClick={() => props.onEditAvailability(professional)}>
                      {clockIcon}
                    </IconButton>
                    <IconButton label={`Editar ${professional.name}`} onClick={() => props.onEditProfessional(professional)}>
                      {pencilIcon}
                    </IconButton>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title="Servicios" onAdd={props.onAddService} canAdd={canManage}>
        {services.length === 0 ? (
          <p className="text-sm text-slate-500">Aún no hay servicios.</p>
        ) : (
          <ul className="space-y-1">
            {services.map((service) => (
              <li key={service.id} data-testid="service-row" className="flex items-center gap-2 rounded-lg px-2 py-1.5 hover:bg-slate-50">
                <span className="min-w-0 flex-1 truncate text-sm text-slate-800">{service.name}</span>
                <span className="text-sm text-slate-500 tabular-nums">{formatCost(service.cost)}</span>
                {canManage && (
                  <IconButton label={`Editar ${service.name}`} onClick={() => props.onEditService(service)}>
                    {pencilIcon}
                  </IconButton>
                )}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <div className="mt-auto border-t border-slate-100 pt-4">
        <TimeZoneControl timezone={props.timezone} editable={props.canChangeTimeZone} />
      </div>
    </aside>
  );
}
