import { describe, expect, it } from 'vitest';
import { defaultAvailability, type Availability } from '@embudo/contracts/http/agenda';
import { appointmentOutsideHours, outsideHoursWarning, weeklyHoursLabel } from './weekly-hours.ts';

const week = (changes: Partial<Availability>): Availability => ({ ...defaultAvailability(), ...changes });
const closed = { startTime: '09:00', endTime: '17:00', enabled: false };

describe('weekly hours', () => {
  it.each<[string, Availability, string]>([
    ['the default week', defaultAvailability(), 'lunes a viernes 09:00–17:00'],
    [
      'a Saturday with its own hours',
      week({ saturday: { startTime: '10:00', endTime: '14:00', enabled: true } }),
      'lunes a viernes 09:00–17:00, sábado 10:00–14:00',
    ],
    ['days apart', week({ tuesday: closed, thursday: closed }), 'lunes, miércoles y viernes 09:00–17:00'],
    ['two days in a row', week({ wednesday: closed, thursday: closed, friday: closed }), 'lunes y martes 09:00–17:00'],
    ['no day at all', week({ monday: closed, tuesday: closed, wednesday: closed, thursday: closed, friday: closed }), 'sin horario semanal'],
  ])('reads %s as people say it', (_label, availability, label) => {
    expect(weeklyHoursLabel(availability)).toBe(label);
  });

  it('warns for a day off, a start too early or an end too late, and not for a booking inside the hours', () => {
    const lucia = { name: 'Lucía', availability: defaultAvailability() };
    const warning = 'Fuera del horario de Lucía: lunes a viernes 09:00–17:00';
    // 2030-03-04 is a Monday, 2030-03-09 a Saturday.
    expect(outsideHoursWarning(lucia, { date: '2030-03-04', startTime: '09:00', endTime: '17:00' })).toBeNull();
    expect(outsideHoursWarning(lucia, { date: '2030-03-09', startTime: '10:00', endTime: '11:00' })).toBe(warning);
    expect(outsideHoursWarning(lucia, { date: '2030-03-04', startTime: '08:30', endTime: '09:30' })).toBe(warning);
    expect(outsideHoursWarning(lucia, { date: '2030-03-04', startTime: '16:30', endTime: '17:30' })).toBe(warning);
    // Half-typed times are not judged yet.
    expect(outsideHoursWarning(lucia, { date: '2030-03-09', startTime: '', endTime: '11:00' })).toBeNull();
  });

  it("reads a saved appointment in the company's time zone", () => {
    const lucia = { name: 'Lucía', availability: defaultAvailability() };
    const at = (startTime: string, endTime: string) => ({
      id: 'a',
      clientName: 'Eva',
      clientWhatsapp: '',
      professionalId: 'p',
      serviceId: 's',
      startTime,
      endTime,
      cost: 0,
      professionalColor: 'blue' as const,
      professionalName: 'Lucía',
      serviceName: 'Corte',
    });
    // 15:00–16:00 UTC is 09:00–10:00 in Mexico City (UTC-6) and 16:00–17:00 in Madrid (UTC+1).
    expect(appointmentOutsideHours(at('2030-03-04T15:00:00Z', '2030-03-04T16:00:00Z'), lucia, 'America/Mexico_City')).toBeNull();
    expect(appointmentOutsideHours(at('2030-03-04T14:00:00Z', '2030-03-04T15:00:00Z'), lucia, 'America/Mexico_City')).not.toBeNull();
    expect(appointmentOutsideHours(at('2030-03-04T15:00:00Z', '2030-03-04T16:00:00Z'), lucia, 'Europe/Madrid')).toBeNull();
    expect(appointmentOutsideHours(at('2030-03-04T16:00:00Z', '2030-03-04T17:00:00Z'), lucia, 'Europe/Madrid')).not.toBeNull();
  });
});
