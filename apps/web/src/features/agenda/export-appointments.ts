import type { AppointmentDto } from './agenda.api.ts';

/** The JSON an export writes: the range it covers and its appointments (spec 02 §2, done in the browser). */
export function appointmentsExport(range: { first: string; last: string }, timezone: string, appointments: AppointmentDto[]) {
  return {
    range: { start: range.first, end: range.last, timezone },
    appointments: appointments.map((appointment) => ({
      id: appointment.id,
      clientName: appointment.clientName,
      clientWhatsapp: appointment.clientWhatsapp,
      professionalId: appointment.professionalId,
      professionalName: appointment.professionalName,
      serviceId: appointment.serviceId,
      serviceName: appointment.serviceName,
      startTime: appointment.startTime,
      endTime: appointment.endTime,
      cost: appointment.cost,
    })),
  };
}

/** Saves the text as a file through a temporary link, without a round trip to the server. */
export function downloadJson(fileName: string, value: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task, once the browser has started the download.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
