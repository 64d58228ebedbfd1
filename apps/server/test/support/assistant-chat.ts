import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { tenants } from '../../db/schema/index.ts';
import { sandboxAppName } from '../../src/modules/tenants/index.ts';
import type { TestApp } from './build-test-app.ts';
import { bearer, registerTenant } from './factories.ts';

let phones = 0;

export interface TimelineItem {
  kind: string;
  sender?: string;
  text: string;
}

/**
 * A company on the Pro plan whose first column's assistant answers at once (no quiet window), and one customer writing
 * from the sandbox phone. The app must be listening (the sandbox phone delivers over HTTP).
 */
export async function companyWithColumnAssistant(t: TestApp, options: { name?: string; assistant?: Record<string, unknown> } = {}) {
  const owner = await registerTenant(t.app, { companyName: options.name ?? 'Peluquería Sol', timezone: 'America/Bogota' });
  await t.database.db.update(tenants).set({ subscriptionPlan: 'professional' }).where(eq(tenants.id, owner.tenant.id));
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api${path}`, headers: bearer(owner.token), payload: payload as object });
  const [funnel] = (await call('GET', '/funnels/summary')).json() as { id: string }[];
  const columns = (await call('GET', `/funnels/${funnel!.id}/columns`)).json() as { id: string; title: string }[];
  const saved = await call('PUT', `/columns/${columns[0]!.id}`, {
    gemini_config: { isEnabled: true, systemPrompt: 'Atiende a los clientes.', tools: [], quietSeconds: 0, ...options.assistant },
  });
  expect(saved.statusCode, saved.body).toBe(200);
  phones += 1;
  const customer = { appName: sandboxAppName(owner.tenant), phone: `52155900${String(phones).padStart(5, '0')}`, name: 'Ana' };
  /** The customer writes; nothing runs yet. */
  const writes = (text: string) => t.app.sandboxPhone!.customerSends({ ...customer, kind: 'text', text });
  /** The customer writes and every job due runs. */
  const says = async (text: string) => {
    await writes(text);
    await t.app.queue.drain();
  };
  const card = async () => {
    const board = (await call('GET', `/funnels/${funnel!.id}/board`)).json() as {
      columns: { id: string; cards: { id: string; phone: string; aiEnabled: boolean; columnId: string }[] }[];
    };
    return board.columns.flatMap((column) => column.cards).find((entry) => entry.phone.replace(/\D/g, '') === customer.phone)!;
  };
  const items = async (): Promise<TimelineItem[]> => {
    const chat = await card();
    return chat ? ((await call('GET', `/cards/${chat.id}/messages?limit=50`)).json().items as TimelineItem[]) : [];
  };
  const aiMessages = async () => (await items()).filter((item) => item.kind === 'message' && item.sender === 'ai').map((item) => item.text);
  const notes = async () => (await items()).filter((item) => item.kind === 'note').map((item) => item.text);
  return { owner, call, funnelId: funnel!.id, columns, customer, writes, says, card, items, aiMessages, notes };
}

export type AssistantCompany = Awaited<ReturnType<typeof companyWithColumnAssistant>>;
