import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { sandboxFakeStatuses, sandboxFakeTemplates } from '../../../db/schema/index.ts';
import { queryRows, type Db } from '../../platform/db/database.ts';

/** Which fake a row belongs to. */
export type FakeName = 'gupshup' | 'meta';

export interface StoredFakeTemplate<T> {
  template: T;
  /** When the fake's review decides it; undefined once decided. */
  reviewDueAt?: Date;
}

export interface FakeStatusStep<S> {
  step: number;
  dueAt: Date;
  status: S;
}

/** A status taken for sending: it is no longer stored, so no one sends it again. */
export interface ClaimedFakeStatus<S> {
  step: number;
  status: S;
  /** When the message's next status is due, if one remains. */
  nextDueAt?: Date;
}

/**
 * What the fakes must not forget across a restart: the templates they hold with their review state, and the
 * statuses they still owe for each message they took. The in-process sandbox keeps them in its database
 * (`sandbox_fake_templates`, `sandbox_fake_statuses`); a fake run as a standalone server in tests keeps them in memory.
 */
export interface FakeStateStore {
  templates<T>(fake: FakeName): Promise<Array<StoredFakeTemplate<T>>>;
  /** Keeps the template as it is now (inserted, or replaced by its id). */
  saveTemplate<T>(fake: FakeName, owner: string, id: string, template: T, reviewDueAt?: Date): Promise<void>;
  deleteTemplates(fake: FakeName, ids: string[]): Promise<void>;
  /** Keeps a message's chain of statuses, each with when it is due. */
  addStatuses<S>(fake: FakeName, messageId: string, steps: Array<FakeStatusStep<S>>): Promise<void>;
  /** Takes (deletes) the message's first remaining status; undefined when none remains. */
  claimStatus<S>(fake: FakeName, messageId: string): Promise<ClaimedFakeStatus<S> | undefined>;
  /** Gives back a status taken but not delivered (the server was closing), to be sent after the restart. */
  restoreStatus<S>(fake: FakeName, messageId: string, step: FakeStatusStep<S>): Promise<void>;
  /** Every message with statuses still owed, and when its first one is due. */
  pendingMessages(fake: FakeName): Promise<Array<{ messageId: string; dueAt: Date }>>;
}

export function createMemoryFakeStateStore(): FakeStateStore {
  const templates = new Map<string, { owner: string; template: unknown; reviewDueAt?: Date }>();
  const statuses = new Map<string, Array<FakeStatusStep<unknown>>>();
  const key = (fake: FakeName, id: string) => `${fake}:${id}`;
  return {
    async templates<T>(fake: FakeName) {
      return [...templates.entries()]
        .filter(([id]) => id.startsWith(`${fake}:`))
        .map(([, held]) => ({ template: held.template as T, ...(held.reviewDueAt ? { reviewDueAt: held.reviewDueAt } : {}) }));
    },
    async saveTemplate(fake, owner, id, template, reviewDueAt) {
      templates.set(key(fake, id), { owner, template: structuredClone(template), ...(reviewDueAt ? { reviewDueAt } : {}) });
    },
    async deleteTemplates(fake, ids) {
      for (const id of ids) templates.delete(key(fake, id));
    },
    async addStatuses(fake, messageId, steps) {
      const chain = statuses.get(key(fake, messageId)) ?? [];
      chain.push(...steps);
      chain.sort((a, b) => a.step - b.step);
      statuses.set(key(fake, messageId), chain);
    },
    async claimStatus<S>(fake: FakeName, messageId: string) {
      const chain = statuses.get(key(fake, messageId));
      const first = chain?.shift();
      if (!chain || !first) return undefined;
      if (chain.length === 0) statuses.delete(key(fake, messageId));
      return { step: first.step, status: first.status as S, ...(chain[0] ? { nextDueAt: chain[0].dueAt } : {}) };
    },
    async restoreStatus(fake, messageId, step) {
      await this.addStatuses(fake, messageId, [step]);
    },
    async pendingMessages(fake) {
      return [...statuses.entries()]
        .filter(([id, chain]) => id.startsWith(`${fake}:`) && chain.length > 0)
        .map(([id, chain]) => ({ messageId: id.slice(fake.length + 1), dueAt: chain[0]!.dueAt }));
    },
  };
}

export function createDatabaseFakeStateStore(db: Db): FakeStateStore {
  const templates = sandboxFakeTemplates;
  const statuses = sandboxFakeStatuses;
  return {
    async templates<T>(fake: FakeName) {
      const rows = await db.select().from(templates).where(eq(templates.fake, fake)).orderBy(asc(templates.seq));
      return rows.map((row) => ({ template: row.template as T, ...(row.reviewDueAt ? { reviewDueAt: row.reviewDueAt } : {}) }));
    },
    async saveTemplate(fake, owner, id, template, reviewDueAt) {
      await db
        .insert(templates)
        .values({ fake, owner, templateId: id, template, reviewDueAt: reviewDueAt ?? null })
        .onConflictDoUpdate({ target: [templates.fake, templates.templateId], set: { template, reviewDueAt: reviewDueAt ?? null } });
    },
    async deleteTemplates(fake, ids) {
      if (ids.length === 0) return;
      await db.delete(templates).where(and(eq(templates.fake, fake), inArray(templates.templateId, ids)));
    },
    async addStatuses(fake, messageId, steps) {
      if (steps.length === 0) return;
      await db.insert(statuses).values(steps.map(({ step, dueAt, status }) => ({ fake, messageId, step, dueAt, status })));
    },
    async claimStatus<S>(fake: FakeName, messageId: string) {
      // One statement: the first remaining status is deleted, and the next one's due time read from before the delete.
      const [row] = await queryRows<{ step: number | string; status: S; next_due_at: string | Date | null }>(
        db,
        sql`
        with claimed as (
          delete from ${statuses}
          where ${statuses.seq} = (
            select ${statuses.seq} from ${statuses}
            where ${statuses.fake} = ${fake} and ${statuses.messageId} = ${messageId}
            order by ${statuses.step} limit 1)
          returning ${statuses.step}, ${statuses.status})
        select claimed.step, claimed.status, (
          select min(${statuses.dueAt}) from ${statuses}
          where ${statuses.fake} = ${fake} and ${statuses.messageId} = ${messageId} and ${statuses.step} > claimed.step) as next_due_at
        from claimed`,
      );
      if (!row) return undefined;
      return { step: Number(row.step), status: row.status, ...(row.next_due_at ? { nextDueAt: new Date(row.next_due_at) } : {}) };
    },
    async restoreStatus(fake, messageId, { step, dueAt, status }) {
      await db.insert(statuses).values({ fake, messageId, step, dueAt, status }).onConflictDoNothing();
    },
    async pendingMessages(fake) {
      const rows = await db
        .select({ messageId: statuses.messageId, dueAt: sql<string | Date>`min(${statuses.dueAt})` })
        .from(statuses)
        .where(eq(statuses.fake, fake))
        .groupBy(statuses.messageId);
      return rows.map((row) => ({ messageId: row.messageId, dueAt: new Date(row.dueAt) }));
    },
  };
}
