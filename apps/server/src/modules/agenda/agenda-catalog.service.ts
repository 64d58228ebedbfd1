import { and, asc, count, eq, gt, inArray } from 'drizzle-orm';
import {
  defaultAvailability,
  PROFESSIONAL_NOT_FOUND,
  SERVICE_NOT_FOUND,
  withAvailability,
  type ProfessionalDto,
  type ServiceDto,
} from '@embudo/contracts/http/agenda';
import type { z } from 'zod';
import type { professionalRequest, professionalUpdateRequest, serviceRequest, serviceUpdateRequest } from '@embudo/contracts/http/agenda';
import { agendaServices, appointments, professionals, professionalServices } from '../../../db/schema/index.ts';
import type { DbExecutor } from '../../platform/db/database.ts';
import { conflict, notFound } from '../../platform/errors/app-error.ts';
import { requireCatalogManager, type AgendaScope } from './agenda-scope.ts';

export type ProfessionalRow = typeof professionals.$inferSelect;
export type ServiceRow = typeof agendaServices.$inferSelect;

type ProfessionalInput = z.output<typeof professionalRequest>;
type ProfessionalChanges = z.output<typeof professionalUpdateRequest>;
type ServiceInput = z.output<typeof serviceRequest>;
type ServiceChanges = z.output<typeof serviceUpdateRequest>;

/** Whether a delete may also remove the future appointments it would otherwise leave without a home. */
export interface DeleteDecision {
  deleteAppointments: boolean;
}

function toProfessionalDto(row: ProfessionalRow, serviceIds: string[]): ProfessionalDto {
  // Stored availability is complete; merging over the default also fills days a future change adds.
  return { id: row.id, name: row.name, color: row.color, serviceIds, availability: withAvailability(defaultAvailability(), row.availability) };
}

export function toServiceDto(row: ServiceRow): ServiceDto {
  return { id: row.id, name: row.name, duration: row.durationMinutes, cost: Number(row.cost) };
}

async function serviceIdsByProfessional(executor: DbExecutor, tenantId: string, professionalIds: string[]) {
  const links = professionalIds.length
    ? await executor
        .select()
        .from(professionalServices)
        .where(and(eq(professionalServices.tenantId, tenantId), inArray(professionalServices.professionalId, professionalIds)))
    : [];
  const byProfessional = new Map<string, string[]>();
  for (const link of links) byProfessional.set(link.professionalId, [...(byProfessional.get(link.professionalId) ?? []), link.serviceId]);
  return byProfessional;
}

export async function listProfessionals(executor: DbExecutor, tenantId: string): Promise<ProfessionalDto[]> {
  const rows = await executor
    .select()
    .from(professionals)
    .where(eq(professionals.tenantId, tenantId))
    .orderBy(asc(professionals.createdAt), asc(professionals.id));
  const serviceIds = await serviceIdsByProfessional(
    executor,
    tenantId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toProfessionalDto(row, serviceIds.get(row.id) ?? []));
}

export async function listServices(executor: DbExecutor, tenantId: string): Promise<ServiceDto[]> {
  const rows = await executor
    .select()
    .from(agendaServices)
    .where(eq(agendaServices.tenantId, tenantId))
    .orderBy(asc(agendaServices.createdAt), asc(agendaServices.id));
  return rows.map(toServiceDto);
}

/** The professional, locked for the rest of the transaction when `lock` is set, or 404. */
export async function findProfessional(
  executor: DbExecutor,
  tenantId: string,
  professionalId: string,
  options: { lock?: boolean } = {},
): Promise<ProfessionalRow> {
  const query = executor
    .select()
    .from(professionals)
    .where(and(eq(professionals.tenantId, tenantId), eq(professionals.id, professionalId)))
    .limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw notFound(PROFESSIONAL_NOT_FOUND);
  return row;
}

export async function findService(executor: DbExecutor, tenantId: string, serviceId: string, options: { lock?: boolean } = {}): Promise<ServiceRow> {
  const query = executor
    .select()
    .from(agendaServices)
    .where(and(eq(agendaServices.tenantId, tenantId), eq(agendaServices.id, serviceId)))
    .limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  if (!row) throw notFound(SERVICE_NOT_FOUND);
  return row;
}

export async function offersService(executor: DbExecutor, tenantId: string, professionalId: string, serviceId: string): Promise<boolean> {
  const [link] = await executor
    .select()
    .from(professionalServices)
    .where(
      and(eq(professionalServices.tenantId, tenantId), eq(professionalServices.professionalId, professionalId), eq(professionalServices.serviceId, serviceId)),
    )
    .limit(1);
  return Boolean(link);
}

/** Another tenant's service id answers like a missing one. */
async function assertServicesExist(executor: DbExecutor, tenantId: string, serviceIds: string[]) {
  const unique = [...new Set(serviceIds)];
  if (unique.length === 0) return unique;
  const found = await executor
    .select({ id: agendaServices.id })
    .from(agendaServices)
    .where(and(eq(agendaServices.tenantId, tenantId), inArray(agendaServices.id, unique)));
  if (found.length !== unique.length) throw notFound(SERVICE_NOT_FOUND);
  return unique;
}

async function replaceServiceLinks(executor: DbExecutor, tenantId: string, professionalId: string, serviceIds: string[]) {
  await executor.delete(professionalServices).where(and(eq(professionalServices.tenantId, tenantId), eq(professionalServices.professionalId, professionalId)));
  if (serviceIds.length) await executor.insert(professionalServices).values(serviceIds.map((serviceId) => ({ tenantId, professionalId, serviceId })));
}

export async function createProfessional(scope: AgendaScope, input: ProfessionalInput): Promise<ProfessionalDto> {
  requireCatalogManager(scope.actor);
  return scope.db.transaction(async (tx) => {
    const serviceIds = await assertServicesExist(tx, scope.tenantId, input.serviceIds);
    const [row] = await tx
      .insert(professionals)
      .values({
        tenantId: scope.tenantId,
        name: input.name,
        color: input.color,
        availability: withAvailability(defaultAvailability(), input.availability),
      })
      .returning();
    await replaceServiceLinks(tx, scope.tenantId, row!.id, serviceIds);
    return toProfessionalDto(row!, serviceIds);
  });
}

export async function updateProfessional(scope: AgendaScope, professionalId: string, changes: ProfessionalChanges): Promise<ProfessionalDto> {
  requireCatalogManager(scope.actor);
  return scope.db.transaction(async (tx) => {
    const current = await findProfessional(tx, scope.tenantId, professionalId, { lock: true });
    const serviceIds = changes.serviceIds ? await assertServicesExist(tx, scope.tenantId, changes.serviceIds) : undefined;
    const [row] = await tx
      .update(professionals)
      .set({
        name: changes.name ?? current.name,
        color: changes.color ?? current.color,
        availability: withAvailability(withAvailability(defaultAvailability(), current.availability), changes.availability),
      })
      .where(and(eq(professionals.tenantId, scope.tenantId), eq(professionals.id, current.id)))
      .returning();
    if (serviceIds) await replaceServiceLinks(tx, scope.tenantId, current.id, serviceIds);
    const links = await serviceIdsByProfessional(tx, scope.tenantId, [current.id]);
    return toProfessionalDto(row!, links.get(current.id) ?? []);
  });
}

const futureAppointmentsMessage = (count: number, what: string) =>
  `${what} tiene ${count === 1 ? '1 cita futura' : `${count} citas futuras`}. ` +
  'Reasígnalas o elimínalas primero, o confirma que quieres eliminarlas también.';

async function countFutureAppointments(executor: DbExecutor, tenantId: string, where: { professionalId?: string; serviceId?: string }, now: Date) {
  const [row] = await executor
    .select({ total: count() })
    .from(appointments)
    .where(
      and(
        eq(appointments.tenantId, tenantId),
        where.professionalId ? eq(appointments.professionalId, where.professionalId) : undefined,
        where.serviceId ? eq(appointments.serviceId, where.serviceId) : undefined,
        gt(appointments.endTime, now),
      ),
    );
  return row?.total ?? 0;
}

/**
 * Refused with 409 while the professional has appointments still to come, unless the caller
 * decided to delete them too; then the professional goes with its appointments and blocks.
 */
export async function deleteProfessional(scope: AgendaScope, professionalId: string, decision: DeleteDecision, now = new Date()) {
  requireCatalogManager(scope.actor);
  await scope.db.transaction(async (tx) => {
    const row = await findProfessional(tx, scope.tenantId, professionalId, { lock: true });
    const upcoming = await countFutureAppointments(tx, scope.tenantId, { professionalId: row.id }, now);
    if (upcoming > 0 && !decision.deleteAppointments) throw conflict(futureAppointmentsMessage(upcoming, `El profesional ${row.name}`));
    await tx.delete(professionals).where(and(eq(professionals.tenantId, scope.tenantId), eq(professionals.id, row.id)));
  });
}

export async function createService(scope: AgendaScope, input: ServiceInput): Promise<ServiceDto> {
  requireCatalogManager(scope.actor);
  const [row] = await scope.db
    .insert(agendaServices)
    .values({
      tenantId: scope.tenantId,
      name: input.name,
      durationMinutes: input.duration,
      cost: roundCents(input.cost),
    })
    .returning();
  return toServiceDto(row!);
}

export async function updateService(scope: AgendaScope, serviceId: string, changes: ServiceChanges): Promise<ServiceDto> {
  requireCatalogManager(scope.actor);
  const current = await findService(scope.db, scope.tenantId, serviceId);
  const [row] = await scope.db
    .update(agendaServices)
    .set({
      name: changes.name ?? current.name,
      durationMinutes: changes.duration ?? current.durationMinutes,
      cost: changes.cost === undefined ? current.cost : roundCents(changes.cost),
    })
    .where(and(eq(agendaServices.tenantId, scope.tenantId), eq(agendaServices.id, current.id)))
    .returning();
  return toServiceDto(row!);
}

/** Like a professional: refused while future appointments use it, unless they are to go too. */
export async function deleteService(scope: AgendaScope, serviceId: string, decision: DeleteDecision, now = new Date()) {
  requireCatalogManager(scope.actor);
  await scope.db.transaction(async (tx) => {
    const row = await findService(tx, scope.tenantId, serviceId, { lock: true });
    const upcoming = await countFutureAppointments(tx, scope.tenantId, { serviceId: row.id }, now);
    if (upcoming > 0 && !decision.deleteAppointments) throw conflict(futureAppointmentsMessage(upcoming, `El servicio ${row.name}`));
    await tx.delete(agendaServices).where(and(eq(agendaServices.tenantId, scope.tenantId), eq(agendaServices.id, row.id)));
  });
}

export const roundCents = (amount: number) => Math.round(amount * 100) / 100;
