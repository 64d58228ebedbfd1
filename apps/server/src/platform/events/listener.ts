import type { DomainEvent, DomainEventType } from '@embudo/contracts/events/index';
import type { Tx } from '../db/database.ts';
import type { JobBackoff } from '../queue/job-definition.ts';

export interface ListenerContext {
  /** 1 on the first delivery, counting every attempt the queue made. */
  attempt: number;
  /**
   * Records, inside the listener's own transaction, that this event has been handled. Answers false when
   * another run already recorded it: the caller must then write nothing (the bus skips the event).
   * A listener that changes the database calls it in the transaction of that change, so a crash between
   * its commit and the job's completion does not run it again; otherwise the bus records it after `handle`.
   */
  recordDelivery(tx: Tx): Promise<boolean>;
}

export interface Listener<T extends DomainEventType = DomainEventType> {
  /** Unique among listeners, stable across releases: it names the listener's jobs and receipts. */
  name: string;
  event: T;
  // Method syntax on purpose: it lets a listener of any event sit in a registry of Listener.
  handle(event: DomainEvent<T>, ctx: ListenerContext): Promise<void>;
  maxAttempts?: number;
  backoff?: JobBackoff;
  /** The lease of the listener's job (see JobDefinition.leaseMs): how soon another process retries after this one died. */
  leaseMs?: number;
  /**
   * False for a listener that is harmless to run twice and writes nothing (it reads and announces): no receipt is read
   * or written for it, two statements fewer per event (a bulk send's progress listeners run for every status).
   */
  receipts?: false;
  /**
   * 'after-commit': handled in the process that published the event, once the unit that published it (a request, a
   * job, a batch of webhook deliveries) has finished, with no job: for listeners that only announce, harmless twice and
   * whose missed announcement the next change catches up (a crash loses it). Published outside such a unit, the event
   * gets a job as usual. Needs `receipts: false`.
   */
  delivery?: 'job' | 'after-commit';
  /**
   * Which of these events (all of one company, published together) the listener would act on, asked inside the
   * publisher's transaction, in one statement or a few for the whole run. The others get no job: most customer
   * messages concern no bot and no assistant, and a job that does nothing still costs its claim, reads and completion.
   * It must keep every event that `handle` could act on, judged on what the transaction sees; a setting changed after
   * the publish (a bot switched on) applies from the next event on.
   */
  selectRelevant?(tx: Tx, tenantId: string, events: ReadonlyArray<DomainEvent<T>>): Promise<ReadonlyArray<DomainEvent<T>>>;
}

/** Declares a reaction to one type of domain event; the module that reacts owns it and registers it on the bus. */
export function defineListener<T extends DomainEventType>(listener: Listener<T>): Listener<T> {
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(listener.name)) throw new Error(`listener name "${listener.name}" must be lowercase words joined by - and .`);
  if (listener.delivery === 'after-commit' && listener.receipts !== false)
    throw new Error(`listener "${listener.name}" is handled after commit, so it keeps no receipts`);
  return listener;
}

/**
 * A `selectRelevant` that keeps the events whose key (their chat, column or message) a set-based lookup names: one
 * statement for the whole run of events.
 */
export function relevantWhere<T extends DomainEventType>(
  keyOf: (event: DomainEvent<T>) => string,
  lookup: (tx: Tx, tenantId: string, keys: string[]) => Promise<Set<string>>,
): NonNullable<Listener<T>['selectRelevant']> {
  return async (tx, tenantId, events) => {
    const found = await lookup(tx, tenantId, [...new Set(events.map(keyOf))]);
    return events.filter((event) => found.has(keyOf(event)));
  };
}
