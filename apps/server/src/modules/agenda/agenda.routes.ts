import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agendaDataQuery,
  agendaDataResponse,
  agendaSettings,
  appointmentDto,
  appointmentRequest,
  appointmentUpdateRequest,
  availabilityQuery,
  availabilityResponse,
  catalogDeleteQuery,
  professionalDto,
  professionalRequest,
  professionalUpdateRequest,
  searchContactsQuery,
  searchContactsResponse,
  serviceDto,
  serviceRequest,
  serviceUpdateRequest,
  timeBlockDto,
  timeBlockRequest,
  timeBlockUpdateRequest,
} from '@embudo/contracts/http/agenda';
import { noContent } from '@embudo/contracts/http/common';
import type { Db } from '../../platform/db/database.ts';
import { sessionOf } from '../../platform/http/route-access.ts';
import { requestScope } from '../../platform/http/request-scope.ts';
import { createProfessional, createService, deleteProfessional, deleteService, updateProfessional, updateService } from './agenda-catalog.service.ts';
import { agendaData, agendaSettings as readSettings, searchContacts, updateAgendaSettings } from './agenda.service.ts';
import type { AgendaScope } from './agenda-scope.ts';
import { freeStartTimes } from './availability.service.ts';
import { createAppointment, createTimeBlock, deleteAppointment, deleteTimeBlock, updateAppointment, updateTimeBlock } from './bookings.service.ts';

const idParams = (message: string) => z.object({ id: z.uuid({ error: message }) });
const professionalParams = idParams('Profesional inválido.');
const serviceParams = idParams('Servicio inválido.');
const appointmentParams = idParams('Cita inválida.');
const timeBlockParams = idParams('Bloque de tiempo inválido.');

/** Spec 02 §7 Agenda, plus the availability answer and the tenant's time zone. */
export const agendaRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const scopeOf = async (request: FastifyRequest): Promise<AgendaScope> => {
    const scope = await requestScope(request);
    return { ...scope, timezone: scope.tenant.timezone };
  };

  app.get('/agenda/data', { schema: { querystring: agendaDataQuery, response: { 200: agendaDataResponse } } }, async (request) =>
    agendaData(await scopeOf(request), request.query),
  );

  app.get('/agenda/settings', { schema: { response: { 200: agendaSettings } } }, async (request) => readSettings(await scopeOf(request)));
  app.put('/agenda/settings', { schema: { body: agendaSettings, response: { 200: agendaSettings } } }, async (request) =>
    updateAgendaSettings(await scopeOf(request), request.body),
  );

  app.get('/agenda/search-contacts', { schema: { querystring: searchContactsQuery, response: { 200: searchContactsResponse } } }, async (request) =>
    searchContacts(await scopeOf(request), request.query.q),
  );

  app.get('/agenda/availability', { schema: { querystring: availabilityQuery, response: { 200: availabilityResponse } } }, async (request) =>
    freeStartTimes(db, sessionOf(request).tenant.id, request.query),
  );

  app.post('/agenda/professionals', { schema: { body: professionalRequest, response: { 201: professionalDto } } }, async (request, reply) =>
    reply.status(201).send(await createProfessional(await scopeOf(request), request.body)),
  );
  app.put(
    '/agenda/professionals/:id',
    { schema: { params: professionalParams, body: professionalUpdateRequest, response: { 200: professionalDto } } },
    async (request) => updateProfessional(await scopeOf(request), request.params.id, request.body),
  );
  app.delete(
    '/agenda/professionals/:id',
    { schema: { params: professionalParams, querystring: catalogDeleteQuery, response: { 204: noContent } } },
    async (request, reply) => {
      await deleteProfessional(await scopeOf(request), request.params.id, { deleteAppointments: request.query.appointments === 'delete' });
      return reply.status(204).send();
    },
  );

  app.post('/agenda/services', { schema: { body: serviceRequest, response: { 201: serviceDto } } }, async (request, reply) =>
    reply.status(201).send(await createService(await scopeOf(request), request.body)),
  );
  app.put('/agenda/services/:id', { schema: { params: serviceParams, body: serviceUpdateRequest, response: { 200: serviceDto } } }, async (request) =>
    updateService(await scopeOf(request), request.params.id, request.body),
  );
  app.delete(
    '/agenda/services/:id',
    { schema: { params: serviceParams, querystring: catalogDeleteQuery, response: { 204: noContent } } },
    async (request, reply) => {
      await deleteService(await scopeOf(request), request.params.id, { deleteAppointments: request.query.appointments === 'delete' });
      return reply.status(204).send();
    },
  );

  app.post('/agenda/appointments', { schema: { body: appointmentRequest, response: { 201: appointmentDto } } }, async (request, reply) =>
    reply.status(201).send(await createAppointment(await scopeOf(request), request.body)),
  );
  app.put(
    '/agenda/appointments/:id',
    { schema: { params: appointmentParams, body: appointmentUpdateRequest, response: { 200: appointmentDto } } },
    async (request) => updateAppointment(await scopeOf(request), request.params.id, request.body),
  );
  app.delete('/agenda/appointments/:id', { schema: { params: appointmentParams, response: { 204: noContent } } }, async (request, reply) => {
    await deleteAppointment(await scopeOf(request), request.params.id);
    return reply.status(204).send();
  });

  app.post('/agenda/time-blocks', { schema: { body: timeBlockRequest, response: { 201: timeBlockDto } } }, async (request, reply) =>
    reply.status(201).send(await createTimeBlock(await scopeOf(request), request.body)),
  );
  app.put('/agenda/time-blocks/:id', { schema: { params: timeBlockParams, body: timeBlockUpdateRequest, response: { 200: timeBlockDto } } }, async (request) =>
    updateTimeBlock(await scopeOf(request), request.params.id, request.body),
  );
  app.delete('/agenda/time-blocks/:id', { schema: { params: timeBlockParams, response: { 204: noContent } } }, async (request, reply) => {
    await deleteTimeBlock(await scopeOf(request), request.params.id);
    return reply.status(204).send();
  });
};
