import { MAX_WELCOME_LENGTH } from '@embudo/contracts/http/autobot';
import { PLAN_FEATURE_MISSING, planIncludes } from '@embudo/contracts/http/plans';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Modal } from '../../shared/ui/Modal.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { Switch } from '../../shared/ui/Switch.tsx';
import { useToast } from '../../shared/ui/use-toast.ts';
import { useSession } from '../auth/use-session.ts';
import { autobotApi } from './autobot.api.ts';
import type { ColumnSummary } from '../board/board.api.ts';
import { groupColumnsByFunnel, type FunnelColumns } from './group-columns-by-funnel.ts';

const settingsKey = ['bot-settings'] as const;
const LOAD_ERROR = 'Error al cargar la configuración';

function Step({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-800">
        <span className="grid size-6 place-items-center rounded-full bg-emerald-100 text-xs font-bold text-emerald-700">{number}</span>
        {title}
      </h3>
      {children}
    </section>
  );
}

interface ColumnsByFunnelProps {
  groups: FunnelColumns[];
  label: string;
  role?: 'group' | 'radiogroup';
  testId: string;
  renderChoice: (column: ColumnSummary) => ReactNode;
  isMuted?: (column: ColumnSummary) => boolean;
}

/** The tenant's columns under their funnel's name, so two funnels' "Nuevos" never look alike (steps 2 and 3). */
function ColumnsByFunnel({ groups, label, role = 'group', testId, renderChoice, isMuted = () => false }: ColumnsByFunnelProps) {
  return (
    <div data-testid={testId} role={role} aria-label={label} className="max-h-[150px] space-y-2 overflow-y-auto rounded-lg border border-slate-200 p-2">
      {groups.length === 0 && <p className="px-1 text-sm text-slate-500">Aún no hay columnas.</p>}
      {groups.map((group) => (
        <div key={group.funnelId} role="group" aria-label={group.funnelName}>
          <p className="px-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">{group.funnelName}</p>
          {group.columns.map((column) => (
            <label
              key={column.id}
              className={`flex items-center gap-2 rounded-md px-2 py-1 text-sm ${isMuted(column) ? 'text-slate-400' : 'text-slate-700 hover:bg-slate-50'}`}
            >
              {renderChoice(column)}
              {column.title}
            </label>
          ))}
        </div>
      ))}
    </div>
  );
}

/** Configurar Bot Auto: the menu bot's switch, welcome, menu columns and waiting room (spec 01 §2). */
export function AutobotDialog({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const queryClient = useQueryClient();
  const id = useId();
  const { session } = useSession();
  const plan = session?.tenant.subscription_plan ?? 'basic';
  const included = planIncludes(plan, 'automation_bot');
  const settings = useQuery({ queryKey: settingsKey, queryFn: autobotApi.load, retry: false });
  const columns = useQuery({ queryKey: ['all-columns'], queryFn: autobotApi.columns, retry: false });
  const [enabled, setEnabled] = useState(false);
  const [message, setMessage] = useState('');
  const [menu, setMenu] = useState<string[]>([]);
  const [trigger, setTrigger] = useState('');

  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.enabled);
    setMessage(settings.data.message);
    setMenu(settings.data.menuColumnIds);
    setTrigger(settings.data.triggerColumnId ?? '');
  }, [settings.data]);

  const loadError = settings.error ?? columns.error;
  useEffect(() => {
    if (loadError) toast.error(errorMessageOr(loadError, LOAD_ERROR));
  }, [loadError, toast]);

  const save = useMutation({
    mutationFn: () => autobotApi.save({ enabled, message: message.trim(), triggerColumnId: trigger || null, menuColumnIds: menu }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKey, saved);
      toast.success('Configuración del bot guardada.');
      onClose();
    },
    onError: (error) => toast.error(errorMessageOr(error, 'No se pudo guardar la configuración')),
  });

  const loading = settings.isPending || columns.isPending;
  // Spec 01 §5 Bot settings save.
  const incomplete = enabled && (!trigger || !message.trim() || menu.length === 0);
  const groups = groupColumnsByFunnel(columns.data ?? []);
  const toggleMenu = (columnId: string, checked: boolean) =>
    setMenu((current) => (checked ? [...current, columnId] : current.filter((idInMenu) => idInMenu !== columnId)));

  return (
    <Modal
      title="Configurar Bot Auto"
      description="Saluda a cada contacto nuevo con un menú y envía su chat a la columna que elija."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancelar
          </Button>
          <Button onClick={() => save.mutate()} disabled={loading || incomplete || Boolean(loadError)} loading={save.isPending}>
            Guardar
          </Button>
        </>
      }
    >
      {loading ? (
        <div className="flex justify-center py-8 text-emerald-600" aria-label="Cargando configuración">
          <Spinner className="size-6" />
        </div>
      ) : loadError ? (
        <p role="alert" className="py-6 text-center text-sm text-rose-600">
          {errorMessageOr(loadError, LOAD_ERROR)}
        </p>
      ) : (
        <div className="space-y-6">
          <div className="flex items-start justify-between gap-4 rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200">
            <div>
              <p className="text-sm font-semibold text-slate-800">Bot automático</p>
              <p className="text-xs text-slate-500">{enabled ? 'Activado: responde a los contactos nuevos.' : 'Desactivado.'}</p>
              {!included && (
                <p data-testid="plan-note" className="mt-1 text-xs font-medium text-amber-700">
                  {PLAN_FEATURE_MISSING.automation_bot(plan)}
                </p>
              )}
            </div>
            <Switch
              checked={enabled}
              label="Activar bot automático"
              disabled={!included && !enabled}
              title={!included ? PLAN_FEATURE_MISSING.automation_bot(plan) : undefined}
              onChange={setEnabled}
            />
          </div>

          <Step number={1} title="Mensaje de bienvenida">
            <label htmlFor={`${id}-message`} className="sr-only">
              Mensaje de bienvenida
            </label>
            <textarea
              id={`${id}-message`}
              value={message}
              maxLength={MAX_WELCOME_LENGTH}
              onChange={(event) => setMessage(event.target.value)}
              rows={3}
              placeholder="¡Hola! ¿Con qué área quieres hablar?"
              className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm outline-none focus:border-emerald-500 focus:ring-4 focus:ring-emerald-100"
            />
            <p className="text-xs text-slate-500">Hasta 3 opciones se envían como botones de WhatsApp; con más, como una lista numerada.</p>
          </Step>

          <Step number={2} title="Columnas del menú">
            <ColumnsByFunnel
              groups={groups}
              label="Columnas del menú"
              testId="menu-columns"
              renderChoice={(column) => (
                <input
                  type="checkbox"
                  className="size-4 accent-emerald-600"
                  checked={menu.includes(column.id)}
                  disabled={column.id === trigger}
                  onChange={(event) => toggleMenu(column.id, event.target.checked)}
                />
              )}
              isMuted={(column) => column.id === trigger}
            />
          </Step>

          <Step number={3} title="Columna de espera">
            <ColumnsByFunnel
              groups={groups}
              label="Columna de espera"
              role="radiogroup"
              testId="trigger-columns"
              renderChoice={(column) => (
                <input
                  type="radio"
                  name={`${id}-trigger`}
                  className="size-4 accent-emerald-600"
                  checked={trigger === column.id}
                  onChange={() => {
                    setTrigger(column.id);
                    setMenu((current) => current.filter((columnId) => columnId !== column.id));
                  }}
                />
              )}
            />
            <p className="text-xs text-slate-500">Los chats nuevos llegan aquí y el bot solo responde a los chats de esta columna.</p>
          </Step>
        </div>
      )}
    </Modal>
  );
}
