import { expect, test } from '@playwright/test';
import { activeMember, registerCompany } from '../fixtures/api.ts';
import { customerWrites, tenantApi } from '../fixtures/tenant-api.ts';
import { BoardPage } from '../pages/board-page.ts';

test('a dragged card stays in its new column after a reload, and moves to another funnel', async ({ page, request }) => {
  const owner = await registerCompany(request);
  const tenant = tenantApi(request, owner);
  await customerWrites(request, owner, { phone: '5215511110001', name: 'Paula Ríos' }, 'Quiero una cotización');
  const postventa = await tenant.createFunnel('Postventa');
  await tenant.createColumn(postventa.id, 'Seguimiento');

  const board = new BoardPage(page);
  await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
  await expect(board.cardIn('Nuevos', 'Paula Ríos')).toBeVisible();
  await expect(page.getByTestId('counter-contacts')).toHaveText('1');

  await board.dragCard('Paula Ríos', 'Propuesta enviada');
  await expect(board.cardIn('Propuesta enviada', 'Paula Ríos')).toBeVisible();
  await expect(board.cardIn('Nuevos', 'Paula Ríos')).toHaveCount(0);
  await page.reload();
  await expect(board.cardIn('Propuesta enviada', 'Paula Ríos')).toBeVisible();

  await board.cardMenu('Paula Ríos', 'Renombrar');
  await page.getByLabel('Nombre del chat').fill('  Paula Ríos (VIP) ');
  await page.getByRole('button', { name: 'Guardar' }).click();
  await expect(board.card('Paula Ríos (VIP)')).toBeVisible();

  await board.cardMenu('Paula Ríos (VIP)', 'Mover a funnel');
  const dialog = page.getByRole('dialog', { name: 'Mover a funnel' });
  const moveButton = dialog.getByRole('button', { name: 'Mover Chat' });
  await expect(moveButton).toBeDisabled();
  await expect(dialog.getByLabel('Funnel de destino').locator('option', { hasText: 'Sales Funnel' })).toHaveCount(0);
  await dialog.getByLabel('Funnel de destino').selectOption({ label: 'Postventa' });
  await expect(moveButton).toBeDisabled();
  await dialog.getByLabel('Columna').selectOption({ label: 'Seguimiento' });
  await moveButton.click();
  await expect(dialog).toHaveCount(0);
  await expect(board.card('Paula Ríos (VIP)')).toHaveCount(0);

  await board.selectFunnel('Postventa');
  await expect(board.cardIn('Seguimiento', 'Paula Ríos (VIP)')).toBeVisible();
  await page.reload();
  await expect(board.cardIn('Seguimiento', 'Paula Ríos (VIP)')).toBeVisible();
});

test("a reload of the board gets the board's document, whose early read the page takes: funnels and board in one call, read again once the socket joins", async ({
  page,
  request,
}) => {
  const owner = await registerCompany(request);
  await customerWrites(request, owner, { phone: '5215511110009', name: 'Inés' }, 'Hola');
  const board = new BoardPage(page);
  await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });

  const reads: string[] = [];
  page.on('request', (sent) => {
    const { pathname } = new URL(sent.url());
    if (/\/api\/funnels\/(summary|shown-board|[^/]+\/board)$/.test(pathname)) reads.push(pathname.replace(/funnels\/[^/]+\/board$/, 'funnels/{id}/board'));
  });
  // A refused inline script would show in the page as a CSP violation: the boot runs inline, allowed by its hash.
  // (zod tries `new Function` once to learn whether it may, which is refused as it should be: not an inline script.)
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      if (event.blockedURI !== 'inline') return;
      const page = window as unknown as { violations?: string[] };
      page.violations = [...(page.violations ?? []), event.violatedDirective];
    });
  });
  const reloaded = await page.reload();
  expect(await reloaded!.text()).toMatch(/<script>\(function\(\)\{/);
  await expect(board.cardIn('Nuevos', 'Inés')).toBeVisible();
  // The page took the early answer: one read opened the board. Once the socket joined, the funnels and the board were
  // read again, once, for what may have been published before the join (events are not replayed).
  const api = `/t/${owner.tenant.slug}/api/funnels`;
  await expect.poll(() => reads.length).toBe(3);
  expect(reads[0]).toBe(`${api}/shown-board`);
  expect(reads.slice(1).sort()).toEqual([`${api}/summary`, `${api}/{id}/board`].sort());
  expect(await page.evaluate(() => (window as unknown as { violations?: string[] }).violations ?? [])).toEqual([]);
});

test('columns: inline rename, colour, and a column with chats cannot be deleted', async ({ page, request }) => {
  const owner = await registerCompany(request);
  await customerWrites(request, owner, { phone: '5215511110002', name: 'Tomás' }, 'Hola');
  const board = new BoardPage(page);
  await board.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });

  await board.column('Ganados').getByRole('heading', { name: 'Ganados' }).click();
  const title = board.column('Ganados').getByLabel('Título de la columna');
  await title.fill('Clientes ganados');
  await title.press('Enter');
  await expect(board.column('Clientes ganados')).toBeVisible();

  await board.column('Clientes ganados').getByRole('button', { name: 'Opciones de la columna' }).click();
  await page.getByRole('button', { name: 'Color Morado' }).click();
  await expect(board.column('Clientes ganados')).toHaveClass(/border-t-violet/);

  await board.columnMenu('Nuevos', 'Borrar Columna');
  await page.getByRole('dialog').getByRole('button', { name: 'Borrar' }).click();
  await expect(board.toast('No se puede eliminar una columna con chats. Mueve los chats primero.')).toBeVisible();
  await expect(board.column('Nuevos')).toBeVisible();

  await page.reload();
  await expect(board.column('Clientes ganados')).toBeVisible();
});

test("two agents on one board see each other's moves, renames and new messages without reloading", async ({ browser, request }) => {
  const owner = await registerCompany(request);
  const tenant = tenantApi(request, owner);
  const admin = await activeMember(request, owner, { name: 'Rosa Admin', email: `rosa@${owner.tenant.slug}.test`, role: 'admin' });
  const customer = { phone: '5215511110003', name: 'Iván Soto' };
  await customerWrites(request, owner, customer, 'Buenos días');

  const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
  try {
    const [pageA, pageB] = await Promise.all(contexts.map((context) => context.newPage()));
    const a = new BoardPage(pageA!);
    const b = new BoardPage(pageB!);
    await a.signIn({ email: owner.user.email, password: owner.password, tenantSlug: owner.tenant.slug });
    await b.signIn(admin);
    await expect(b.cardIn('Nuevos', 'Iván Soto')).toBeVisible();

    await a.dragCard('Iván Soto', 'En conversación');
    await expect(b.cardIn('En conversación', 'Iván Soto')).toBeVisible();

    await b.cardMenu('Iván Soto', 'Renombrar');
    await pageB!.getByLabel('Nombre del chat').fill('Iván Soto (mayorista)');
    await pageB!.getByRole('button', { name: 'Guardar' }).click();
    await expect(a.card('Iván Soto (mayorista)')).toBeVisible();

    await customerWrites(request, owner, customer, '¿Tienen stock de brocas?');
    for (const board of [a, b]) {
      await expect(board.card('Iván Soto (mayorista)').getByTestId('card-preview')).toHaveText('¿Tienen stock de brocas?');
      await expect(board.unreadBadge('Iván Soto (mayorista)')).toHaveText('2');
    }

    // A new customer's card appears on both boards live.
    await customerWrites(request, owner, { phone: '5215511110004', name: 'Nueva Clienta' }, 'Hola');
    await expect(a.cardIn('Nuevos', 'Nueva Clienta')).toBeVisible();
    await expect(b.cardIn('Nuevos', 'Nueva Clienta')).toBeVisible();

    // A column added by one agent shows up for the other; a funnel too.
    const [funnel] = await tenant.funnels();
    await pageB!.getByRole('button', { name: '+ Nueva Columna' }).click();
    await pageB!.getByLabel('Título de la columna').fill('Cotizados');
    await pageB!.getByRole('button', { name: 'Crear' }).click();
    await expect(a.column('Cotizados')).toBeVisible();
    await tenant.createFunnel('Mayoristas');
    await expect(pageA!.getByLabel('Funnel', { exact: true }).locator('option', { hasText: 'Mayoristas' })).toHaveCount(1);
    expect(funnel!.name).toBe('Sales Funnel');
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
});
