import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { domainEventEnvelope, domainEventPayloads, type DomainEvent, type DomainEventPayload, type DomainEventType } from '@embudo/contracts/events/index';
import { eventDeliveries } from '../../../db/schema/index.ts';
import type { Db, Tx } from '../db/database.ts';
import { insertRows } from '../db/insert-rows.ts';
import { defineJob, type JobDefinition } from '../queue/job-definition.ts';
import type { JobQueue, QueueLogger } from '../queue/job-queue.ts';
import type { Listener, ListenerContext } from './listener.ts';
import { deferAfterCommit } from './after-commit.ts';

/** What a producer hands to `publish`: the bus fills in the id and the time unless given (a replay keeps them). */
export interface NewDomainEvent<T extends DomainEventType> {
  type: T;
  tenantId: string;
  payload: DomainEventPayload<T>;
  id?: string;
  occurredAt?: string;
  /** The request that caused it, when it is not the one running (a batch of many requests' deliveries). */
  requestId?: string | null;
}

/** The one thing producers need: modules that publish depend on this, never on the bus or its listeners. */
export interface EventPublisher {
  publish<T extends DomainEventType>(tx: Tx, event: NewDomainEvent<T>): Promise<DomainEvent<T>>;
  /** Several events in one statement, in order (a batch of deliveries). */
  publishMany<T extends DomainEventType>(tx: Tx, events: ReadonlyArray<NewDomainEvent<T>>): Promise<Array<DomainEvent<T>>>;
}

/** A listener's job: the event travels whole in the job's payload (docs/decisions/0011). */
export const LISTENER_JOB_PREFIX = 'event.';

const listenerJobPayload = domainEventEnvelope.superRefine((event, ctx) => {
  const parsed = domainEventPayloads[event.type].safeParse(event.payload);
  if (!parsed.success) ctx.addIssue({ code: 'custom', message: `payload of ${event.type}: ${z.prettifyError(parsed.error)}` });
});

/**
 * Domain events over the job queue. `publish` writes one job per listener of the event's type through the
 * caller's transaction, so the event exists exactly when the change that caused it commits, and nothing
 * runs before that commit. The queue delivers each job at least once, retried with the listener's backoff;
 * a receipt per (listener, event id) makes a second delivery of a handled event a no-op.
 */
export class EventBus implements EventPublisher {
  private readonly listeners = new Map<DomainEventType, Listener[]>();
  private readonly jobs = new Map<string, JobDefinition>();

  constructor(private readonly options: { db: Db; queue: JobQueue; logger: QueueLogger }) {}

  register<T extends DomainEventType>(listener: Listener<T>): void {
    const jobName = `${LISTENER_JOB_PREFIX}${listener.name}`;
    if (this.jobs.has(jobName)) throw new Error(`listener "${listener.name}" is already registered`);
    const job = defineJob({
      name: jobName,
      payload: listenerJobPayload,
      maxAttempts: listener.maxAttempts,
      backoff: listener.backoff,
      leaseMs: listener.leaseMs,
      handler: (event, ctx) => this.deliver(listener as unknown as Listener, event as DomainEvent, ctx.attempt),
    });
    this.options.queue.register(job);
    this.jobs.set(jobName, job);
    this.listeners.set(listener.event, [...(this.listeners.get(listener.event) ?? []), listener as unknown as Listener]);
  }

  async publish<T extends DomainEventType>(tx: Tx, draft: NewDomainEvent<T>): Promise<DomainEvent<T>> {
    const [event] = await this.publishMany(tx, [draft]);
    return event!;
  }

  async publishMany<T extends DomainEventType>(tx: Tx, drafts: ReadonlyArray<NewDomainEvent<T>>): Promise<Array<DomainEvent<T>>> {
    const events = drafts.map((draft): DomainEvent<T> => ({
      id: draft.id ?? randomUUID(),
      type: draft.type,
      tenantId: draft.tenantId,
      occurredAt: draft.occurredAt ?? new Date().toISOString(),
      payload: domainEventPayloads[draft.type].parse(draft.payload) as DomainEventPayload<T>,
    }));
    const relevant = await this.relevantDeliveries(tx, events);
    await this.options.queue.enqueueMany(
      tx,
      events.flatMap((event, index) =>
        (this.listeners.get(event.type) ?? [])
          .filter((listener) => relevant.get(listener)?.has(event) ?? true)
          .filter((listener) => !(listener.delivery === 'after-commit' && this.handleAfterCommit(listener, event)))
          .map((listener) => ({
            definition: this.jobs.get(`${LISTENER_JOB_PREFIX}${listener.name}`)!,
            payload: event,
            options: { singletonKey: `${listener.name}:${event.id}`, requestId: drafts[index]!.requestId },
          })),
      ),
    );
    return events;
  }

  /** Defers the listener to the end of the publishing unit; false when nothing collects (the event then gets a job). */
  private handleAfterCommit(listener: Listener, event: DomainEvent): boolean {
    return deferAfterCommit(() => this.handle(listener, event, { attempt: 1, recordDelivery: async () => true }));
  }

  /** For each listener that selects its events: the ones it would act on, asked once per company in the run. */
  private async relevantDeliveries(tx: Tx, events: ReadonlyArray<DomainEvent>): Promise<Map<Listener, Set<DomainEvent>>> {
    const relevant = new Map<Listener, Set<DomainEvent>>();
    const byTypeAndTenant = new Map<string, DomainEvent[]>();
    for (const event of events) {
      const key = `${event.type} ${event.tenantId}`;
      const group = byTypeAndTenant.get(key);
      if (group) group.push(event);
      else byTypeAndTenant.set(key, [event]);
    }
    for (const group of byTypeAndTenant.values()) {
      const { type, tenantId } = group[0]!;
      for (const listener of this.listeners.get(type) ?? []) {
        if (!listener.selectRelevant) continue;
        const chosen = relevant.get(listener) ?? new Set<DomainEvent>();
        (await listener.selectRelevant(tx, tenantId, group)).forEach((event) => chosen.add(event));
        relevant.set(listener, chosen);
      }
    }
    return relevant;
  }

  private async deliver(listener: Listener, event: DomainEvent, attempt: number): Promise<void> {
    const { db, logger } = this.options;
    const receipt = { listener: listener.name, eventId: event.id };
    if (listener.receipts === false) return this.handle(listener, event, { attempt, recordDelivery: async () => true });
    const handled = await db
      .select({ at: eventDeliveries.deliveredAt })
      .from(eventDeliveries)
      .where(and(eq(eventDeliveries.listener, receipt.listener), eq(eventDeliveries.eventId, receipt.eventId)))
      .limit(1);
    if (handled.length > 0) {
      logger.debug({ ...receipt, type: event.type }, 'event already handled by this listener; skipped');
      return;
    }
    const recordDelivery = async (tx: Tx) => {
      const [row] = await insertRows(tx, eventDeliveries, [{ ...receipt, tenantId: event.tenantId }], { onConflictDoNothing: true, returning: ['listener'] });
      return Boolean(row);
    };
    await this.handle(listener, event, { attempt, recordDelivery });
    // Whether or not the listener recorded it in its own transaction (that one may have rolled back), the receipt now exists.
    await insertRows(db, eventDeliveries, [{ ...receipt, tenantId: event.tenantId }], { onConflictDoNothing: true, returning: ['listener'] });
  }

  private async handle(listener: Listener, event: DomainEvent, ctx: ListenerContext): Promise<void> {
    try {
      await listener.handle(event, ctx);
    } catch (error) {
      // The queue retries or fails the job for good (and logs it); this line names the event for whoever reads the log.
      this.options.logger.warn(
        { err: error, listener: listener.name, eventId: event.id, type: event.type, tenantId: event.tenantId, attempt: ctx.attempt },
        'event listener failed',
      );
      throw error;
    }
  }
}
