import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_PAGE_SIZE } from '@embudo/contracts/http/funnels';
import { cards, contacts } from '../../../db/schema/index.ts';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { signInMember } from '../../../test/support/members.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ providerMode: 'sandbox' });
});
afterAll(async () => t.close());

type Owner = Awaited<ReturnType<typeof registerTenant>>;
interface CardDto {
  id: string;
  title: string;
  unreadCount: number;
  lastActivityAt: string;
}
interface Page {
  cards: CardDto[];
  total: number;
  nextCursor: string | null;
}

const get = (owner: Owner, path: string) => t.app.inject({ method: 'GET', url: `/api${path}`, headers: bearer(owner.token) });

async function firstColumns(owner: Owner) {
  const [funnel] = (await get(owner, '/funnels/summary')).json() as { id: string }[];
  const columns = (await get(owner, `/funnels/${funnel!.id}/columns`)).json() as { id: string }[];
  return { funnelId: funnel!.id, columns: columns.map((column) => column.id) };
}

/**
 * `count` chats in a column: some share one activity time to the microsecond (as a bulk send's do), the rest are a
 * second apart; every fifth has unread messages, every tenth is a group.
 */
async function seedCards(owner: Owner, funnelId: string, columnId: string, count: number, prefix = 'Cliente') {
  const base = Date.parse('2026-11-01T12:00:00.123Z');
  const people = await t.database.db
    .insert(contacts)
    .values(Array.from({ length: count }, (_, index) => ({ tenantId: owner.tenant.id, phone: `52155${String(index).padStart(8, '0')}${prefix.length}` })))
    .returning();
  await t.database.db.insert(cards).values(
    people.map((person, index) => ({
      tenantId: owner.tenant.id,
      funnelId,
      columnId,
      contactId: person.id,
      title: `${prefix} ${String(index).padStart(3, '0')}`,
      phone: person.phone,
      isGroup: index % 10 === 9,
      unreadCount: index % 5 === 0 ? 2 : 0,
      lastMessageText: index === 7 ? 'quiero una cotización' : 'hola',
      lastActivityAt: new Date(index < 30 ? base : base + index * 1000),
    })),
  );
}

async function allPages(owner: Owner, columnId: string, query = '', limit = 40) {
  const seen: CardDto[] = [];
  let cursor: string | null = null;
  do {
    const answer = await get(owner, `/columns/${columnId}/cards?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(answer.statusCode, answer.body).toBe(200);
    const page = answer.json() as Page;
    seen.push(...page.cards);
    cursor = page.nextCursor;
  } while (cursor);
  return seen;
}

describe('board pages', () => {
  it('answers the first page of each column with its total and the funnel counters from the whole funnel', async () => {
    const owner = await registerTenant(t.app);
    const { funnelId, columns } = await firstColumns(owner);
    await seedCards(owner, funnelId, columns[0]!, 120);
    await seedCards(owner, funnelId, columns[1]!, 3, 'Otro');

    const board = (await get(owner, `/funnels/${funnelId}/board`)).json() as {
      columns: Array<{ id: string; cards: CardDto[]; cardCount: number; nextCursor: string | null }>;
      counters: Record<string, number>;
    };
    const [first, second] = board.columns;
    expect(first!.cards).toHaveLength(BOARD_PAGE_SIZE);
    expect(first!.cardCount).toBe(120);
    expect(first!.nextCursor).toEqual(expect.any(String));
    // Newest activity first: the chats a second apart, the latest of them on top.
    expect(first!.cards[0]!.title).toBe('Cliente 119');
    expect(second).toMatchObject({ cardCount: 3, nextCursor: null });
    expect(second!.cards).toHaveLength(3);
    // Every fifth chat is unread (24 + 1 of 3 in the other column); of those every other tenth is a group: 0 here.
    expect(board.counters).toEqual({ unreadIndividual: 25, unreadGroup: 0, totalContacts: 123 });

    const small = (await get(owner, `/funnels/${funnelId}/board?perColumn=10`)).json() as { columns: Array<{ cards: unknown[] }> };
    expect(small.columns[0]!.cards).toHaveLength(10);
  });

  it('walks a column page by page without repeating or skipping a chat, ties in activity time included', async () => {
    const owner = await registerTenant(t.app);
    const { funnelId, columns } = await firstColumns(owner);
    await seedCards(owner, funnelId, columns[0]!, 120);

    const walked = await allPages(owner, columns[0]!, '', 17);
    expect(walked).toHaveLength(120);
    expect(new Set(walked.map((card) => card.id)).size).toBe(120);
    const times = walked.map((card) => Date.parse(card.lastActivityAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const unreadFirst = await allPages(owner, columns[0]!, '&sort=unread', 7);
    expect(unreadFirst).toHaveLength(120);
    expect(new Set(unreadFirst.map((card) => card.id)).size).toBe(120);
    const firstRead = unreadFirst.findIndex((card) => card.unreadCount === 0);
    expect(firstRead).toBe(24);
    expect(unreadFirst.slice(firstRead).every((card) => card.unreadCount === 0)).toBe(true);
  });

  it('searches the whole column on the server by title, phone or last message, counting every match', async () => {
    const owner = await registerTenant(t.app);
    const { funnelId, columns } = await firstColumns(owner);
    await seedCards(owner, funnelId, columns[0]!, 120);

    const byTitle = (await get(owner, `/columns/${columns[0]}/cards?search=${encodeURIComponent('cliente 00')}`)).json() as Page;
    expect(byTitle.total).toBe(10);
    expect(byTitle.cards.map((card) => card.title).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `Cliente 00${index}`));
    const byText = (await get(owner, `/columns/${columns[0]}/cards?search=cotizaci`)).json() as Page;
    expect(byText).toMatchObject({ total: 1, nextCursor: null, cards: [{ title: 'Cliente 007' }] });
    // LIKE's wildcards are searched for as text.
    expect(((await get(owner, `/columns/${columns[0]}/cards?search=${encodeURIComponent('%')}`)).json() as Page).total).toBe(0);
  });

  it('refuses a bad cursor, limit or order with a clear message', async () => {
    const owner = await registerTenant(t.app);
    const { columns } = await firstColumns(owner);
    const cases: Array<[string, string]> = [
      ['cursor=nope', 'Cursor inválido.'],
      [`cursor=${Buffer.from('1.123.not-a-uuid').toString('base64url')}`, 'Cursor inválido.'],
      ['limit=0', 'Límite inválido.'],
      ['limit=abc', 'Límite inválido.'],
      ['limit=201', 'El límite máximo es 200.'],
      ['sort=oldest', 'Orden inválido: usa recent o unread.'],
    ];
    for (const [query, message] of cases) {
      const answer = await get(owner, `/columns/${columns[0]}/cards?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json().message, query).toBe(message);
    }
  });

  it("answers 404 for another company's column and for a funnel an agent was not given", async () => {
    const a = await registerTenant(t.app);
    const b = await registerTenant(t.app);
    const { columns: columnsOfB } = await firstColumns(b);
    expect((await get(a, `/columns/${columnsOfB[0]}/cards`)).statusCode).toBe(404);

    const agent = await signInMember(t, a, 'agent', []);
    const { columns: columnsOfA } = await firstColumns(a);
    expect((await get(agent, `/columns/${columnsOfA[0]}/cards`)).statusCode).toBe(404);
    const viewer = await signInMember(t, a, 'viewer', []);
    expect((await get(viewer, `/columns/${columnsOfA[0]}/cards`)).statusCode).toBe(404);
  });
});
