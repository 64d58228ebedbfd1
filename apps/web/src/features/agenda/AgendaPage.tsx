import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_DAY_START } from '@embudo/contracts/http/agenda';
import { clockTimeToMinutes } from '@embudo/contracts/time/wall-clock';
import { ApiError, errorMessageOr } from '../../shared/api-client/api-error.ts';
import { Button } from '../../shared/ui/Button.tsx';
import { Spinner } from '../../shared/ui/Spinner.tsx';
import { useDialogs } from '../../shared/ui/use-dialogs.ts';
import { useModal } from '../../shared/ui/use-modal.ts';
import { useToast } from '../../shared/ui/use-toast.ts';
import { useSession } from '../auth/use-session.ts';
import { CLOCK_REFRESH_MS, instantRange, rangeTitle, stepAnchor, titleDays, todayIn, visibleDays, type AgendaView } from './agenda-calendar.ts';
import { appointmentDraftOf, newAppointmentDraft, newTimeBlockDraft, timeBlockDraftOf } from './agenda-drafts.ts';
import { agendaApi, agendaKeys, type AppointmentDto, type ProfessionalDto, type ServiceDto, type TimeBlockDto } from './agenda.api.ts';
import { AgendaSidebar } from './AgendaSidebar.tsx';
import { AgendaToolbar } from './AgendaToolbar.tsx';
import { AppointmentDialog } from './AppointmentDialog.tsx';
import { AvailabilityDialog } from './AvailabilityDialog.tsx';
import { appointmentsExport, downloadJson } from './export-appointments.ts';
import { MonthView } from './MonthView.tsx';
import { ProfessionalDialog } from './ProfessionalDialog.tsx';
import { ServiceDialog } from './ServiceDialog.tsx';
import { TimeBlockDialog } from './TimeBlockDialog.tsx';
import { TimeGridView, type LanePoint } from './TimeGridView.tsx';
import { useNow } from './use-now.ts';

const VIEW_KEY = 'agenda_view';
const storedView = (): AgendaView => {
  const stored = localStorage.getItem(VIEW_KEY);
  return stored === 'day' || stored === 'month' ? stored : 'week';
};

/** The agenda (spec 02 §2): sidebar of professionals and services, and day, week or month views in the company's time zone. */
export function AgendaPage() {
  const { session } = useSession();
  const toast = useToast();
  const dialogs = useDialogs();
  const modal = useModal();
  const queryClient = useQueryClient();
  const role = session?.user.role;
  const canManage = role === 'owner' || role === 'admin';
  const canBook = role !== undefined && role !== 'viewer';

  const settings = useQuery({ queryKey: agendaKeys.settings, queryFn: agendaApi.settings });
  const timezone = settings.data?.timezone ?? session?.tenant.timezone ?? 'UTC';
  const now = useNow(CLOCK_REFRESH_MS);
  const today = todayIn(timezone, now);
  const [view, setView] = useState<AgendaView>(storedView);
  const [chosenAnchor, setChosenAnchor] = useState<string | null>(null);
  const anchor = chosenAnchor ?? today;

  const days = visibleDays(view, anchor);
  const range = instantRange({ first: days[0]!, last: days.at(-1)! }, timezone);
  const data = useQuery({ queryKey: agendaKeys.data(range), queryFn: () => agendaApi.data(range), placeholderData: keepPreviousData });
  const professionals = data.data?.professionals ?? [];
  const services = data.data?.services ?? [];

  useEffect(() => {
    if (data.isError) toast.error(errorMessageOr(data.error, 'Fallo al cargar los datos de la agenda.'));
  }, [data.isError, data.error, toast]);

  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: agendaKeys.all }), [queryClient]);

  const changeView = (next: AgendaView) => {
    setView(next);
    localStorage.setItem(VIEW_KEY, next);
  };

  /** Asks, deletes and says how it went; `remove` answers false when the user stopped on the way. */
  const confirmDelete = async (title: string, message: string, success: string, remove: () => Promise<unknown>) => {
    if (!(await dialogs.confirm({ title, message, confirmText: 'Eliminar', destructive: true }))) return;
    try {
      if ((await remove()) === false) return;
      toast.success(success);
      refresh();
    } catch (error) {
      toast.error(errorMessageOr(error, 'Error al eliminar.'));
    }
  };

  /** The server refuses (409) to orphan future appointments: the user decides whether they go too. */
  const removeWithDecision = (remove: (withAppointments: boolean) => Promise<unknown>) => async () => {
    try {
      await remove(false);
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 409)) throw error;
      const yes = await dialogs.confirm({ title: 'Citas futuras', message: error.message, confirmText: 'Eliminar también las citas', destructive: true });
      if (!yes) return false;
      await remove(true);
    }
    return true;
  };

  const deleteProfessional = (professional: ProfessionalDto) =>
    confirmDelete(
      'Eliminar profesional',
      `¿Seguro que quieres eliminar a ${professional.name}?`,
      'Profesional eliminado',
      removeWithDecision((withAppointments) => agendaApi.deleteProfessional(professional.id, withAppointments)),
    );
  const deleteService = (service: ServiceDto) =>
    confirmDelete(
      'Eliminar servicio',
      `¿Seguro que quieres eliminar el servicio ${service.name}?`,
      'Servicio eliminado',
      removeWithDecision((withAppointments) => agendaApi.deleteService(service.id, withAppointments)),
    );
  const deleteAppointment = (appointment: AppointmentDto) =>
    confirmDelete('Eliminar cita', `¿Seguro que quieres eliminar la cita de ${appointment.clientName}?`, 'Cita eliminada', () =>
      agendaApi.deleteAppointment(appointment.id),
    );
  const deleteTimeBlock = (block: TimeBlockDto) =>
    confirmDelete('Eliminar bloque de tiempo', '¿Seguro que quieres eliminar este bloque de tiempo?', 'Bloque de tiempo eliminado', () =>
      agendaApi.deleteTimeBlock(block.id),
    );

  const openProfessional = (professional?: ProfessionalDto) =>
    modal.open((close) => (
      <ProfessionalDialog
        professional={professional}
        services={services}
        onSaved={refresh}
        onDelete={professional ? () => void deleteProfessional(professional) : undefined}
        onClose={close}
      />
    ));
  const openService = (service?: ServiceDto) =>
    modal.open((close) => (
      <ServiceDialog service={service} onSaved={refresh} onDelete={service ? () => void deleteService(service) : undefined} onClose={close} />
    ));
  const openAvailability = (professional: ProfessionalDto) =>
    modal.open((close) => <AvailabilityDialog professional={professional} onSaved={refresh} onClose={close} />);

  const newAppointment = (point: LanePoint) => {
    if (!canBook) return;
    modal.open((close) => (
      <AppointmentDialog
        initial={newAppointmentDraft(point)}
        professionals={professionals}
        services={services}
        readOnly={false}
        onSaved={refresh}
        onClose={close}
      />
    ));
  };
  const openAppointment = (appointment: AppointmentDto) =>
    modal.open((close) => (
      <AppointmentDialog
        appointmentId={appointment.id}
        initial={appointmentDraftOf(appointment, timezone)}
        professionals={professionals}
        services={services}
        readOnly={!canBook}
        onSaved={refresh}
        onDelete={canBook ? () => void deleteAppointment(appointment) : undefined}
        onClose={close}
      />
    ));
  const newTimeBlock = (point: LanePoint) => {
    if (!canBook) return;
    modal.open((close) => (
      <TimeBlockDialog initial={newTimeBlockDraft(point)} professionals={professionals} readOnly={false} onSaved={refresh} onClose={close} />
    ));
  };
  const openTimeBlock = (block: TimeBlockDto) =>
    modal.open((close) => (
      <TimeBlockDialog
        timeBlockId={block.id}
        initial={timeBlockDraftOf(block, timezone)}
        professionals={professionals}
        readOnly={!canBook}
        onSaved={refresh}
        onDelete={canBook ? () => void deleteTimeBlock(block) : undefined}
        onClose={close}
      />
    ));
  /** Month view: a new appointment on that date, for the first professional when there is one. */
  const newAppointmentOn = (date: string) =>
    newAppointment({ date, minutes: clockTimeToMinutes(DEFAULT_DAY_START), professionalId: professionals[0]?.id ?? '' });

  const exportJson = () => {
    const span = titleDays(view, anchor);
    const bounds = instantRange(span, timezone);
    const inRange = (data.data?.appointments ?? []).filter(
      (entry) => Date.parse(entry.startTime) < Date.parse(bounds.end) && Date.parse(entry.endTime) > Date.parse(bounds.start),
    );
    if (inRange.length === 0) return toast.info('No hay citas para exportar en el rango actual.');
    downloadJson(`agenda_${span.first}_${span.last}.json`, appointmentsExport(span, timezone, inRange));
  };

  let content;
  if (data.isPending) {
    content = (
      <div className="grid flex-1 place-items-center">
        <Spinner className="size-6 text-emerald-600" />
      </div>
    );
  } else if (!data.data) {
    content = (
      <div className="grid flex-1 place-items-center p-6 text-center">
        <div>
          <p className="text-sm text-slate-600">No se pudo cargar la agenda.</p>
          <Button className="mt-3" size="sm" variant="secondary" onClick={() => void data.refetch()}>
            Reintentar
          </Button>
        </div>
      </div>
    );
  } else if (view === 'month') {
    content = (
      <MonthView
        days={days}
        anchor={anchor}
        today={today}
        appointments={data.data.appointments}
        professionals={professionals}
        timezone={timezone}
        onDayClick={newAppointmentOn}
        onOpenAppointment={openAppointment}
      />
    );
  } else {
    // Without professionals the grid still shows its hours and days, with no lanes to book in yet.
    content = (
      <>
        {professionals.length === 0 && (
          <p role="note" className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-800">
            {canManage ? 'Añade un profesional en la barra lateral para empezar a agendar citas.' : 'Aún no hay profesionales en la agenda.'}
          </p>
        )}
        <TimeGridView
          key={view}
          days={days}
          professionals={professionals}
          appointments={data.data.appointments}
          timeBlocks={data.data.timeBlocks}
          timezone={timezone}
          now={now}
          today={today}
          onLaneClick={newAppointment}
          onLaneContextMenu={newTimeBlock}
          onOpenAppointment={openAppointment}
          onOpenTimeBlock={openTimeBlock}
        />
      </>
    );
  }

  return (
    // From lg up the agenda fills the shell's main area. Below it the sidebar stacks on top and the calendar
    // keeps nearly a screen of its own under it.
    <div className="flex flex-col lg:h-full lg:min-h-[560px] lg:flex-row">
      <AgendaSidebar
        professionals={professionals}
        services={services}
        timezone={timezone}
        canManage={canManage}
        canChangeTimeZone={role === 'owner'}
        onAddProfessional={() => openProfessional()}
        onEditProfessional={openProfessional}
        onEditAvailability={openAvailability}
        onAddService={() => openService()}
        onEditService={openService}
      />
      <div className="flex h-[calc(100dvh-7rem)] min-h-[480px] min-w-0 flex-none flex-col lg:h-auto lg:min-h-0 lg:flex-1">
        <AgendaToolbar
          title={rangeTitle(view, anchor)}
          view={view}
          onPrevious={() => setChosenAnchor(stepAnchor(view, anchor, -1))}
          onToday={() => setChosenAnchor(null)}
          onNext={() => setChosenAnchor(stepAnchor(view, anchor, 1))}
          onExport={exportJson}
          onView={changeView}
        />
        {content}
      </div>
    </div>
  );
}
