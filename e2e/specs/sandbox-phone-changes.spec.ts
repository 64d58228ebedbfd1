import { expect, test } from '@playwright/test';
import { registerCompany } from '../fixtures/api.ts';
import { BoardPage } from '../pages/board-page.ts';
import { ChatPanel } from '../pages/chat-panel.ts';
import { SandboxPhonePage } from '../pages/sandbox-phone-page.ts';

test("a customer reacts, edits and deletes from the sandbox phone, and the agent's chat shows each change in place", async ({ browser, request }) => {
  const owner = await registerCompany(request);
  const customer = { phone: '5215522230001', name: 'Cliente Cambios' };
  const context = await browser.newContext();
  try {
    const agentPage = await context.newPage();
    const phonePage = await context.newPage();
    const board = new BoardPage(agentPage);
    await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });

    const phone = new SandboxPhonePage(phonePage);
    await phone.goto();
    await phone.playCustomer(customer);
    await phone.sendText('Hola, ¿tienen taladros?');
    await phone.sendText('Mensaje por error');

    await board.card(customer.name).click();
    const chat = new ChatPanel(agentPage);
    await expect(chat.message('Mensaje por error')).toBeVisible();
    await chat.send('Sí, tenemos varios modelos.');
    const reply = phone.businessMessage('Sí, tenemos varios modelos.');
    await expect(reply).toHaveCount(1, { timeout: 15_000 });

    // By position: while it is edited, the bubble's text sits in the editor.
    const [asked, mistaken] = [phone.messages('from_customer').nth(0), phone.messages('from_customer').nth(1)];
    await phone.react(reply, '👍');
    await phone.edit(asked, 'Hola, ¿tienen taladros de 500 W?');
    await phone.deleteForEveryone(mistaken);

    // Each change reached the company through its webhook and changed the message it names; none added a bubble.
    await expect(chat.message('Sí, tenemos varios modelos.').getByRole('listitem', { name: 'Reacción 👍 del cliente' })).toBeVisible({ timeout: 15_000 });
    const edited = chat.message('Hola, ¿tienen taladros de 500 W?');
    await expect(edited.getByTestId('message-edited')).toHaveText('Editado', { timeout: 15_000 });
    await expect(chat.root.getByTestId('message-deleted')).toHaveText('Mensaje eliminado', { timeout: 15_000 });
    await expect(chat.message('Mensaje por error')).toHaveCount(0);
    await expect(chat.messages()).toHaveCount(3);

    // The phone keeps what the customer did.
    await phonePage.reload();
    await expect(phone.messages()).toHaveCount(3);
    await expect(reply.getByTestId('phone-reaction')).toHaveText('👍');
    await expect(phone.customerMessage('Hola, ¿tienen taladros de 500 W?').getByTestId('phone-message-edited')).toHaveText('Editado');
    await expect(phone.messages('from_customer').nth(1).getByTestId('phone-message-deleted')).toBeVisible();
  } finally {
    await context.close();
  }
});
