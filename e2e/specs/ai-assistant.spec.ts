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

const KNOWLEDGE = 'Precios de la peluquería.\nEl corte de cabello cuesta 250 pesos.\nEl tinte completo cuesta 600 pesos.\n';
const CUSTOMER = { phone: '5215566660001', name: 'Clienta IA' };

/**
 * Issue 15's acceptance, as a newcomer plays it on a fresh `npm start`: the assistant of the demo's first column, with a
 * knowledge file, answers from it on the sandbox phone, offers a time and books it once the customer confirms it (once),
 * the copilot summarises the chat, and the assistant hands the chat to a person.
 */
test('the column assistant answers from its knowledge file, books a confirmed time in the Agenda and hands over to a person', async ({
  page,
  context,
  request,
}) => {
  const login = await request.post('/api/auth/login', { data: DEMO });
  const demo = tenantCalls(request, (await login.json()) as { token: string; tenant: { id: string; slug: string } });
  const [funnel] = await demo.get<Funnel[]>('/funnels/summary');
  const [firstColumn] = await demo.get<Column[]>(`/funnels/${funnel!.id}/columns`);
  // Someone to book with (the demo's agenda starts empty), every day, so "mañana" has hours whatever today is.
  const service = await demo.post<{ id: string }>('/agenda/services', { name: 'Corte de cabello', duration: 60, cost: 250 });
  const everyDay = Object.fromEntries(
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => [day, { startTime: '09:00', endTime: '17:00', enabled: true }]),
  );
  await demo.post('/agenda/professionals', { name: 'Lucía', color: 'blue', serviceIds: [service.id], availability: everyDay });

  try {
    const board = new BoardPage(page);
    await board.signIn(DEMO);
    await board.switchOnColumnAssistant(
      firstColumn!.title,
      {
        instructions: 'Eres el asistente de la peluquería. Responde con los precios del archivo.',
        file: { name: 'precios.txt', text: KNOWLEDGE, purpose: 'Lista de precios' },
      },
      (dialog) => expect(dialog.getByTestId('ai-model-label')).toHaveText('Modelo: IA de prueba'),
    );

    // A customer asks from the sandbox phone: the answer quotes the file.
    const phone = new SandboxPhonePage(await context.newPage());
    await phone.goto();
    await phone.playCustomer(CUSTOMER);
    await phone.sendText('Hola, ¿cuánto cuesta el corte de cabello?');
    await expect(phone.businessMessage('El corte de cabello cuesta 250 pesos.')).toHaveCount(1, { timeout: 20_000 });

    // The chat shows it as the AI's, with its badge.
    const chat = new ChatPanel(page);
    await chat.open(CUSTOMER.name);
    await expect(chat.message('El corte de cabello cuesta 250 pesos.').getByTestId('ai-badge')).toBeVisible();

    // Asked for a day and time, it offers that time and books nothing yet.
    await phone.sendText('Quiero una cita mañana a las 10');
    await expect(phone.businessMessage('a las 10:00. ¿Te la reservo?')).toHaveCount(1, { timeout: 20_000 });
    const today = new Date().toISOString().slice(0, 10);
    const inAWeek = new Date(Date.now() + 8 * 86_400_000).toISOString().slice(0, 10);
    const customerAppointments = async () => {
      const agenda = await demo.get<{ appointments: Array<{ clientWhatsapp: string; clientName: string; startTime: string }> }>(
        `/agenda/data?start=${today}&end=${inAWeek}`,
      );
      return agenda.appointments.filter((entry) => entry.clientWhatsapp.replace(/\D/g, '') === CUSTOMER.phone);
    };
    expect(await customerAppointments()).toEqual([]);

    // The customer takes it: one real appointment, and its time in the company's words.
    await phone.sendText('Sí, a las 10');
    const booked = phone.businessMessage('tu cita quedó agendada para el');
    await expect(booked).toHaveCount(1, { timeout: 20_000 });
    await expect(booked).toContainText('a las 10:00');
    const [appointment, ...more] = await customerAppointments();
    expect(more, JSON.stringify(more)).toEqual([]);
    const time = new Intl.DateTimeFormat('es', { timeZone: 'America/Mexico_City', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(appointment!.startTime),
    );
    expect(time).toBe('10:00');

    // A thanks and a reminder request book nothing more.
    await phone.sendText('Gracias');
    await expect(phone.businessMessage('¡Con gusto!')).toHaveCount(1, { timeout: 20_000 });
    await phone.sendText('Recuérdame mañana mi cita');
    await expect(phone.businessMessage('te enviaré el recordatorio')).toHaveCount(1, { timeout: 20_000 });
    expect(await customerAppointments()).toHaveLength(1);

    // "Resumir conversación": an internal note with who, what they want, what was agreed and what is pending.
    await chat.button('Resumir conversación').click();
    await expect(board.toast('Resumen agregado a Notas Internas.')).toBeVisible();
    await chat.openTab('Notas Internas');
    const summary = chat.root.getByText(/^Resumen:/);
    await expect(summary).toContainText(`- Cliente: ${CUSTOMER.name}.`);
    await expect(summary).toContainText(/- Quiere: .*agendar una cita para el .* a las 10:00/);
    await expect(summary).toContainText(/- Acordado: .*cita agendada para el .* a las 10:00/);
    await expect(summary).toContainText('- Pendiente: nada.');
    await chat.openTab('Mensajes');

    // Asked for a person, it steps back: the chat's switch turns off live and a note says why.
    await phone.sendText('Quiero hablar con una persona');
    await expect(phone.businessMessage('Te comunico con una persona del equipo')).toHaveCount(1, { timeout: 20_000 });
    await expect(chat.root.getByRole('switch', { name: 'AI Inactiva' })).toBeVisible();
    await chat.openTab('Notas Internas');
    await expect(chat.root.getByText('La IA pasó la conversación a una persona: El cliente pidió hablar con una persona.')).toBeVisible();
  } finally {
    // The demo's first column goes back to the menu auto-bot for the journeys that follow.
    await demo.put(`/columns/${firstColumn!.id}`, { gemini_config: null });
  }
});
