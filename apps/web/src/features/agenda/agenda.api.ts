import type {
  AgendaData,
  AgendaSettings,
  AppointmentDto,
  AppointmentRequest,
  ContactSearchResult,
  ProfessionalDto,
  ProfessionalUpdateRequest,
  ServiceDto,
  ServiceRequest,
  TimeBlockDto,
  TimeBlockRequest,
} from '@embudo/contracts/http/agenda';
import { api } from '../../shared/api-client/api-client.ts';

export type { AgendaData, AppointmentDto, ContactSearchResult, ProfessionalDto, ServiceDto, TimeBlockDto };

const id = (value: string) => encodeURIComponent(value);
/** Deleting a professional or service with future appointments takes this decision; without it the server answers 409. */
const withAppointments = (confirmed: boolean) => (confirmed ? '?appointments=delete' : '');

export const agendaKeys = {
  all: ['agenda'] as const,
  data: (range: { start: string; end: string }) => ['agenda', 'data', range.start, range.end] as const,
  settings: ['agenda', 'settings'] as const,
};

/** Spec 02 §7 Agenda. */
export const agendaApi = {
  data: (range: { start: string; end: string }) => api.get<AgendaData>(`/api/agenda/data?start=${id(range.start)}&end=${id(range.end)}`),
  settings: () => api.get<AgendaSettings>('/api/agenda/settings'),
  saveSettings: (settings: AgendaSettings) => api.put<AgendaSettings>('/api/agenda/settings', settings),
  searchContacts: (query: string, signal?: AbortSignal) => api.get<ContactSearchResult[]>(`/api/agenda/search-contacts?q=${id(query)}`, { signal }),

  createProfessional: (body: ProfessionalUpdateRequest) => api.post<ProfessionalDto>('/api/agenda/professionals', body),
  updateProfessional: (professionalId: string, body: ProfessionalUpdateRequest) =>
    api.put<ProfessionalDto>(`/api/agenda/professionals/${id(professionalId)}`, body),
  deleteProfessional: (professionalId: string, deleteAppointments = false) =>
    api.delete(`/api/agenda/professionals/${id(professionalId)}${withAppointments(deleteAppointments)}`),

  createService: (body: ServiceRequest) => api.post<ServiceDto>('/api/agenda/services', body),
  updateService: (serviceId: string, body: ServiceRequest) => api.put<ServiceDto>(`/api/agenda/services/${id(serviceId)}`, body),
  deleteService: (serviceId: string, deleteAppointments = false) => api.delete(`/api/agenda/services/${id(serviceId)}${withAppointments(deleteAppointments)}`),

  createAppointment: (body: AppointmentRequest) => api.post<AppointmentDto>('/api/agenda/appointments', body),
  updateAppointment: (appointmentId: string, body: AppointmentRequest) => api.put<AppointmentDto>(`/api/agenda/appointments/${id(appointmentId)}`, body),
  deleteAppointment: (appointmentId: string) => api.delete(`/api/agenda/appointments/${id(appointmentId)}`),

  createTimeBlock: (body: TimeBlockRequest) => api.post<TimeBlockDto>('/api/agenda/time-blocks', body),
  updateTimeBlock: (timeBlockId: string, body: TimeBlockRequest) => api.put<TimeBlockDto>(`/api/agenda/time-blocks/${id(timeBlockId)}`, body),
  deleteTimeBlock: (timeBlockId: string) => api.delete(`/api/agenda/time-blocks/${id(timeBlockId)}`),
};
