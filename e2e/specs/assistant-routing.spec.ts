import { expect, test } from '@playwright/test';
import { DEMO, tenantCalls } from '../fixtures/api.ts';
import { BoardPage } from '../pages/board-page.ts';
import { ChatPanel } from '../pages/chat-panel.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';

interface Funnel {
  id: string;
}
interface Column {
  id: string;
  title: string;
}

const HOURS = 'Horario de la tienda.\nAbrimos a las 7:45 de lunes a sábado y cerramos a las 20:00.\nLos domingos no abrimos.\n';
const CUSTOMER = { phone: '5215566660044', name: 'Cliente Ruteado' };

/**
 * Issue 44's acceptance on a fresh `npm start`: the demo's menu auto-bot sends a customer of the sandbox phone to
 * "Ventas", whose assistant (with a knowledge file) then answers their question, asked in other words than the file's.
 */
test('a chat the menu sends to a column with an assistant is answered there from its knowledge', async ({ page, context, request }) => {
  const login = await request.post('/api/auth/login', { data: DEMO });
  const demo = tenantCalls(request, (await login.json()) as { token: string; tenant: { id: string; slug: string } });
  const [funnel] = await demo.get<Funnel[]>('/funnels/summary');
  const ventas = (await demo.get<Column[]>(`/funnels/${funnel!.id}/columns`)).find((column) => column.title === 'Ventas')!;

  try {
    const board = new BoardPage(page);
    await board.signIn(DEMO);
    await board.switchOnColumnAssistant(
      'Ventas',
      {
        instructions: 'Eres el asistente de ventas de la tienda. Responde con los datos del archivo.',
        file: { name: 'horario.txt', text: HOURS, purpose: 'Horario de atención' },
      },
      (dialog) => expect(dialog.getByTestId('assistant-scope')).toContainText('Responde los chats que entran a esta columna (por el menú'),
    );

    const phone = new SandboxPhonePage(await context.newPage());
    await phone.goto();
    await phone.playCustomer(CUSTOMER);
    await phone.sendText('Hola');
    await expect(phone.messages('to_customer').getByRole('button', { name: 'Ventas', exact: true })).toBeVisible({ timeout: 15_000 });
    await phone.pressReply('Ventas');
    await expect(phone.businessMessage('Listo, te comunicamos con Ventas.')).toHaveCount(1, { timeout: 15_000 });

    // The card arrived with its AI on, and says so.
    const chat = new ChatPanel(page);
    await expect(board.cardIn('Ventas', CUSTOMER.name)).toBeVisible();
    await chat.open(CUSTOMER.name);
    await expect(chat.root.getByRole('switch', { name: 'AI Activa' })).toBeVisible();

    // The menu choice was not a question: the next business message answers the customer's, from the file.
    await phone.sendText('¿A qué hora abren mañana?');
    const toCustomer = phone.messages('to_customer');
    await expect(toCustomer).toHaveCount(3, { timeout: 20_000 });
    await expect(toCustomer.last()).toContainText('7:45');
    await expect(chat.messages().last().getByTestId('ai-badge')).toBeVisible();
  } finally {
    // The demo's Ventas column goes back to no assistant for the journeys that follow.
    await demo.put(`/columns/${ventas.id}`, { gemini_config: null });
  }
});
