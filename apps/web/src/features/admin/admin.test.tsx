import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import type { AdminStats, AdminTemplate, AdminTenant, TemplateStatus } from './admin.api.ts';

const operator = { id: 'a1', email: 'operador@embudo.test', name: 'Administrador Principal' };

function storeAdmin(token = 'admin-token') {
  localStorage.setItem('admin_auth_token', token);
  localStorage.setItem('admin_user', JSON.stringify(operator));
}

const stats: AdminStats = {
  totalTenants: 3,
  totalUsers: 7,
  activeConnections: 2,
  messagesSentThisMonth: 1234,
  totalTemplates: 5,
  utilityTemplates: 3,
  marketingTemplates: 2,
};

const acme: AdminTenant = {
  id: 't1',
  name: 'Acme',
  slug: 'acme',
  subscription_plan: 'basic',
  trial_ends_at: null,
  usage: { totalCost: 1.5 },
  users: [
    { id: 'u1', name: 'Ana Dueña', email: 'ana@acme.test', role: 'owner', is_active: true, last_login_at: null },
    { id: 'u2', name: 'Beto Agente', email: 'beto@acme.test', role: 'agent', is_active: true, last_login_at: null },
    { id: 'u3', name: 'Vera Visora', email: 'vera@acme.test', role: 'viewer', is_active: true, last_login_at: null },
  ],
};

/** A signed-in operator whose token the server accepts. */
function signedIn(handlers: Parameters<typeof installFakeApi>[0] = {}) {
  storeAdmin();
  return installFakeApi({
    'GET /api/admin/me': () => json(200, { user: operator }),
    'GET /api/admin/stats': () => json(200, stats),
    ...handlers,
  });
}

describe('admin sign-in', () => {
  it('requires email and password', async () => {
    const api = installFakeApi({});
    renderApp('/admin/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Iniciar sesión' }));
    expect(screen.getByText('Email es requerido')).toBeTruthy();
    expect(screen.getByText('Contraseña es requerida')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });

  it('toggles the password visibility', async () => {
    installFakeApi({});
    renderApp('/admin/login');
    const password = (await screen.findByLabelText('Contraseña')) as HTMLInputElement;
    // A browser test looking the field up by "Contraseña" must find the field alone, not the toggle too.
    expect(screen.getAllByLabelText(/contraseña/i)).toEqual([password]);
    expect(password.type).toBe('password');
    fireEvent.click(screen.getByRole('button', { name: 'Mostrar contraseña' }));
    expect(password.type).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Ocultar contraseña' }));
    expect(password.type).toBe('password');
  });

  it("shows 'Login failed.' and the server's reason when the server refuses the credentials", async () => {
    installFakeApi({ 'POST /api/auth/admin/login': () => json(401, { code: 'UNAUTHORIZED', message: 'Email o contraseña incorrectos.' }) });
    const app = renderApp('/admin/login');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'operador@embudo.test' } });
    fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'mala' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(await screen.findByText('Login failed.')).toBeTruthy();
    expect(screen.getByText('Email o contraseña incorrectos.')).toBeTruthy();
    expect(app.pathname()).toBe('/admin/login');
    expect(localStorage.getItem('admin_auth_token')).toBeNull();
  });

  it('stores the admin session and opens the dashboard with its figures', async () => {
    const api = installFakeApi({
      'POST /api/auth/admin/login': () => json(200, { token: 'fresh', user: operator }),
      'GET /api/admin/stats': () => json(200, stats),
    });
    const app = renderApp('/admin/login');
    fireEvent.change(await screen.findByLabelText('Email'), { target: { value: 'operador@embudo.test' } });
    fireEvent.change(screen.getByLabelText('Contraseña'), { target: { value: 'Operador123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(app.pathname()).toBe('/admin/dashboard');
    expect(localStorage.getItem('admin_auth_token')).toBe('fresh');
    expect(JSON.parse(localStorage.getItem('admin_user') ?? '{}').email).toBe(operator.email);
    expect(api.callsTo('POST', '/api/auth/admin/login')[0]?.body).toEqual({ email: 'operador@embudo.test', password: 'Operador123' });
    expect((await screen.findByTestId('stat-messages-value')).textContent).toBe('1,234');
    expect(screen.getByTestId('stat-tenants-value').textContent).toBe('3');
    expect(screen.getByTestId('stat-templates-utility').textContent).toBe('3');
    expect(screen.getByTestId('stat-templates-marketing').textContent).toBe('2');
    expect(api.callsTo('GET', '/api/admin/stats')[0]?.headers.authorization).toBe('Bearer fresh');
  });
});

describe('admin session', () => {
  it('logs the operator out when the stored token fails the check on load', async () => {
    storeAdmin('revoked');
    const api = installFakeApi({ 'GET /api/admin/me': () => json(401, { code: 'UNAUTHORIZED', message: 'Sesión inválida' }) });
    const app = renderApp('/admin/dashboard');
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeTruthy();
    await waitFor(() => expect(app.pathname()).toBe('/admin/login'));
    expect(api.callsTo('GET', '/api/admin/me')[0]?.headers.authorization).toBe('Bearer revoked');
    expect(localStorage.getItem('admin_auth_token')).toBeNull();
    expect(localStorage.getItem('admin_user')).toBeNull();
  });

  it.each(['/admin', '/admin/no-existe', '/admin/x/y'])('sends the unknown admin path %s to the dashboard when signed in', async (path) => {
    signedIn();
    const app = renderApp(path);
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
    expect(app.pathname()).toBe('/admin/dashboard');
  });

  it.each(['/admin', '/admin/tenants', '/admin/no-existe'])('sends %s to the login when signed out', async (path) => {
    installFakeApi({});
    const app = renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeTruthy();
    expect(app.pathname()).toBe('/admin/login');
  });

  it("shows the operator's first name on the logout link, which ends the session", async () => {
    const api = signedIn({ 'POST /api/admin/logout': () => new Response(null, { status: 204 }) });
    const app = renderApp('/admin/dashboard');
    fireEvent.click(await screen.findByRole('link', { name: 'Salir (Administrador)' }));
    expect(await screen.findByRole('heading', { name: 'Admin Login' })).toBeTruthy();
    expect(app.pathname()).toBe('/admin/login');
    expect(api.callsTo('POST', '/api/admin/logout')).toHaveLength(1);
    expect(localStorage.getItem('admin_auth_token')).toBeNull();
  });
});

describe('admin tenants', () => {
  it("saves a tenant's plan and confirms it", async () => {
    const api = signedIn({
      'GET /api/admin/tenants': () => json(200, [acme]),
      'PUT /api/admin/tenants/t1/plan': () => json(200, { id: 't1', subscription_plan: 'professional' }),
    });
    renderApp('/admin/tenants');
    const card = await screen.findByRole('article', { name: 'Acme' });
    expect(within(card).getByText('acme')).toBeTruthy();
    expect(within(card).getByTestId('tenant-cost').textContent).toBe('$1.5000');
    expect(within(card).getByTestId('tenant-user-count').textContent).toBe('3 usuarios');
    const select = within(card).getByLabelText('Plan') as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual(['Básico', 'Profesional', 'Empresarial']);
    fireEvent.change(select, { target: { value: 'professional' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Guardar plan' }));
    expect(await screen.findByText('Plan actualizado!')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/tenants/t1/plan')[0]?.body).toEqual({ subscription_plan: 'professional' });
  });

  it("shows the company's send rate and saves a new one as Mensajes por segundo; a rate out of range is refused before any call", async () => {
    const slowed = { ...acme, send_rate: { messagesPerSecond: 80, isDefault: true, currentMessagesPerSecond: 40 } };
    const api = signedIn({
      'GET /api/admin/tenants': () => json(200, [slowed]),
      'PUT /api/admin/tenants/t1/send-rate': () => json(200, { messagesPerSecond: 250, isDefault: false, currentMessagesPerSecond: 250 }),
    });
    renderApp('/admin/tenants');
    const card = await screen.findByRole('article', { name: 'Acme' });
    const field = within(card).getByLabelText('Mensajes por segundo') as HTMLInputElement;
    expect(field.value).toBe('80');
    expect(within(card).getByTestId('tenant-send-rate-note').textContent).toBe('Ahora 40 msg/s: el proveedor pidió ir más despacio.');
    const form = within(within(card).getByRole('form', { name: 'Ritmo de envío' }));
    fireEvent.change(field, { target: { value: '1500' } });
    fireEvent.click(form.getByRole('button', { name: 'Guardar' }));
    expect((await form.findByRole('alert')).textContent).toBe('Los mensajes por segundo deben ser un número mayor que 0 y como máximo 1000.');
    expect(api.callsTo('PUT', '/api/admin/tenants/t1/send-rate')).toHaveLength(0);
    fireEvent.change(field, { target: { value: '250' } });
    fireEvent.click(form.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Ritmo de envío actualizado.')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/tenants/t1/send-rate')[0]?.body).toEqual({ messagesPerSecond: 250 });
  });

  it("tells the operator when the plan could not be saved: the server's reason, or the fallback", async () => {
    let answer = json(400, { code: 'BAD_REQUEST', message: 'Plan inválido: usa basic, professional o enterprise.' });
    signedIn({
      'GET /api/admin/tenants': () => json(200, [acme]),
      'PUT /api/admin/tenants/t1/plan': () => answer,
    });
    renderApp('/admin/tenants');
    fireEvent.click(await screen.findByRole('button', { name: 'Guardar plan' }));
    expect(await screen.findByText('Plan inválido: usa basic, professional o enterprise.')).toBeTruthy();
    answer = json(500, {});
    fireEvent.click(screen.getByRole('button', { name: 'Guardar plan' }));
    expect(await screen.findByText('Error al actualizar el plan.')).toBeTruthy();
  });

  it("disables an owner's status toggle and changes another user's", async () => {
    const api = signedIn({
      'GET /api/admin/tenants': () => json(200, [acme]),
      'PUT /api/admin/users/u2/status': () => json(200, { id: 'u2', is_active: false }),
    });
    renderApp('/admin/tenants');
    const owner = (await screen.findByRole('switch', { name: 'Usuario activo: Ana Dueña' })) as HTMLButtonElement;
    expect(owner.disabled).toBe(true);
    expect(within(screen.getByTestId('user-ana@acme.test')).getByText('Propietario')).toBeTruthy();
    // Spec 01 §6 names the viewer role Visualizador; the admin area says the same as the team dialog.
    expect(within(screen.getByTestId('user-vera@acme.test')).getByText('Visualizador')).toBeTruthy();
    const agent = screen.getByRole('switch', { name: 'Usuario activo: Beto Agente' }) as HTMLButtonElement;
    expect(agent.disabled).toBe(false);
    fireEvent.click(owner);
    fireEvent.click(agent);
    await waitFor(() => expect(api.callsTo('PUT', '/api/admin/users/u2/status')[0]?.body).toEqual({ is_active: false }));
    expect(api.callsTo('PUT', '/api/admin/users/u1/status')).toHaveLength(0);
  });

  it('shows the status error message', async () => {
    signedIn({
      'GET /api/admin/tenants': () => json(200, [acme]),
      'PUT /api/admin/users/u2/status': () => json(500, {}),
    });
    renderApp('/admin/tenants');
    fireEvent.click(await screen.findByRole('switch', { name: 'Usuario activo: Beto Agente' }));
    expect(await screen.findByText('Error al cambiar el estado del usuario.')).toBeTruthy();
  });

  it("shows the server's reason when a status change or a reset is refused", async () => {
    signedIn({
      'GET /api/admin/tenants': () => json(200, [acme]),
      'PUT /api/admin/users/u2/status': () => json(403, { code: 'FORBIDDEN', message: 'El plan Básico permite 2 miembros activos.' }),
      'POST /api/admin/users/u2/reset-password': () => json(404, { code: 'NOT_FOUND', message: 'Usuario no encontrado.' }),
    });
    renderApp('/admin/tenants');
    fireEvent.click(await screen.findByRole('switch', { name: 'Usuario activo: Beto Agente' }));
    expect(await screen.findByText('El plan Básico permite 2 miembros activos.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Resetear contraseña de Beto Agente' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Resetear' }));
    expect(await screen.findByText('Usuario no encontrado.')).toBeTruthy();
  });

  it("shows the plan limit's message when reactivating a member is refused, and the member stays inactive", async () => {
    const planLimit = 'Tu plan Básico (Starter) permite hasta 2 miembros activos. Mejora tu plan para invitar o activar a más usuarios.';
    const withInactive: AdminTenant = {
      ...acme,
      users: [...acme.users, { id: 'u3', name: 'Carla Lectora', email: 'carla@acme.test', role: 'viewer', is_active: false, last_login_at: null }],
    };
    const api = signedIn({
      'GET /api/admin/tenants': () => json(200, [withInactive]),
      'PUT /api/admin/users/u3/status': () => json(403, { code: 'FORBIDDEN', message: planLimit }),
    });
    renderApp('/admin/tenants');
    const toggle = await screen.findByRole('switch', { name: 'Usuario activo: Carla Lectora' });
    fireEvent.click(toggle);
    expect(await screen.findByText(planLimit)).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/users/u3/status')[0]?.body).toEqual({ is_active: true });
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Usuario activo: Carla Lectora' }).getAttribute('aria-checked')).toBe('false'));
  });

  it('resets a password after confirmation and shows the temporary one', async () => {
    signedIn({
      'GET /api/admin/tenants': () => json(200, [acme]),
      'POST /api/admin/users/u2/reset-password': () => json(200, { tempPassword: 'Temp-9xQ2' }),
    });
    renderApp('/admin/tenants');
    fireEvent.click(await screen.findByRole('button', { name: 'Resetear contraseña de Beto Agente' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Resetear' }));
    expect((await screen.findByTestId('temp-password')).textContent).toBe('Temp-9xQ2');
  });
});

describe('admin templates', () => {
  const template = (id: string, status: TemplateStatus): AdminTemplate => ({
    id,
    tenant_id: 'tenant-1',
    tenant_name: 'Acme',
    name: `t_${id}`,
    category: 'UTILITY',
    language_code: 'es',
    header: null,
    body_text: 'Hola {{1}}',
    footer: null,
    buttons: [],
    status,
    rejection_reason: null,
    blocked_by_operator: false,
    provider_template_id: null,
    variables_schema: { 1: { type: 'text', label: 'Variable 1' } },
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
  });

  it('offers approve on non-approved and reject on non-rejected templates', async () => {
    const api = signedIn({
      'GET /api/admin/templates/all': () => json(200, [template('a', 'APPROVED'), template('p', 'PENDING'), template('r', 'REJECTED')]),
      'PUT /api/admin/templates/p/status': () => json(200, {}),
    });
    renderApp('/admin/templates');
    const approved = await screen.findByTestId('template-a');
    expect(within(approved).queryByRole('button', { name: 'Aprobar t_a' })).toBeNull();
    expect(within(approved).getByRole('button', { name: 'Rechazar t_a' })).toBeTruthy();
    expect(within(screen.getByTestId('template-r')).queryByRole('button', { name: 'Rechazar t_r' })).toBeNull();
    fireEvent.click(within(screen.getByTestId('template-p')).getByRole('button', { name: 'Aprobar t_p' }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/admin/templates/p/status')[0]?.body).toEqual({ status: 'APPROVED' }));
  });

  it("rejects with the operator's optional reason, and shows the block and its reason", async () => {
    const api = signedIn({
      'GET /api/admin/templates/all': () =>
        json(200, [template('p', 'PENDING'), { ...template('b', 'REJECTED'), rejection_reason: 'Promociona apuestas.', blocked_by_operator: true }]),
      'PUT /api/admin/templates/p/status': () => json(200, {}),
    });
    renderApp('/admin/templates');
    const blocked = within(await screen.findByTestId('template-b'));
    expect(blocked.getByText('Bloqueada por el administrador')).toBeTruthy();
    expect(blocked.getByTestId('admin-rejection-reason').textContent).toBe('Promociona apuestas.');
    expect(screen.getByTestId('review-rule').textContent).toContain('Sincronizar con Meta no la desbloquea');

    const pending = within(screen.getByTestId('template-p'));
    fireEvent.change(pending.getByRole('textbox', { name: 'Motivo del rechazo de t_p (opcional)' }), { target: { value: ' Lenguaje engañoso ' } });
    fireEvent.click(pending.getByRole('button', { name: 'Rechazar t_p' }));
    await waitFor(() => expect(api.callsTo('PUT', '/api/admin/templates/p/status')[0]?.body).toEqual({ status: 'REJECTED', reason: 'Lenguaje engañoso' }));
  });

  it("shows 'Failed to load templates.' when the list cannot load", async () => {
    signedIn();
    renderApp('/admin/templates');
    expect(await screen.findByText('Failed to load templates.')).toBeTruthy();
  });
});

describe('admin settings', () => {
  const pricing = {
    price_per_sent_message: 0.01,
    price_per_received_message: 0.005,
    price_template_marketing: 0.05,
    price_template_utility: 0.02,
    price_per_1000_ai_tokens: 0.002,
  };
  const gupshup = { apiKey: '••••1234', apiKeySet: true, partnerEmail: 'p@x.test', partnerPassword: '', partnerPasswordSet: true };

  it('saves an emptied price as 0', async () => {
    const api = signedIn({
      'GET /api/admin/settings/pricing': () => json(200, pricing),
      'GET /api/admin/settings/gupshup': () => json(200, gupshup),
      'PUT /api/admin/settings/pricing': (call) => json(200, call.body),
    });
    renderApp('/admin/settings');
    const sent = (await screen.findByLabelText('Precio por mensaje enviado')) as HTMLInputElement;
    expect(sent.value).toBe('0.01');
    expect(sent.step).toBe('0.0001');
    fireEvent.change(sent, { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Precio por plantilla de marketing'), { target: { value: '0.0625' } });
    fireEvent.click(screen.getByRole('button', { name: 'Guardar precios' }));
    expect(await screen.findByText('Pricing settings saved!')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/settings/pricing')[0]?.body).toEqual({ ...pricing, price_per_sent_message: 0, price_template_marketing: 0.0625 });
    expect(sent.value).toBe('0');
  });

  it("reports a failed pricing save: the server's reason, or the fallback", async () => {
    let answer = json(400, { message: 'Los precios admiten hasta 4 decimales.' });
    signedIn({
      'GET /api/admin/settings/pricing': () => json(200, pricing),
      'GET /api/admin/settings/gupshup': () => json(200, gupshup),
      'PUT /api/admin/settings/pricing': () => answer,
    });
    renderApp('/admin/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Guardar precios' }));
    expect(await screen.findByText('Los precios admiten hasta 4 decimales.')).toBeTruthy();
    answer = json(500, {});
    fireEvent.click(screen.getByRole('button', { name: 'Guardar precios' }));
    expect(await screen.findByText('Failed to save pricing settings.')).toBeTruthy();
  });

  it('keeps the provider password blank and says a blank one keeps the stored password', async () => {
    const api = signedIn({
      'GET /api/admin/settings/pricing': () => json(200, pricing),
      'GET /api/admin/settings/gupshup': () => json(200, gupshup),
      'PUT /api/admin/settings/gupshup': () => json(200, gupshup),
    });
    renderApp('/admin/settings');
    expect(((await screen.findByLabelText('API Key')) as HTMLInputElement).value).toBe('••••1234');
    expect((screen.getByLabelText('Partner Password') as HTMLInputElement).value).toBe('');
    expect(screen.getByText('Déjala en blanco para mantener la contraseña guardada.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Guardar configuración' }));
    expect(await screen.findByText('Settings saved!')).toBeTruthy();
    expect(api.callsTo('PUT', '/api/admin/settings/gupshup')[0]?.body).toEqual({ apiKey: '••••1234', partnerEmail: 'p@x.test', partnerPassword: '' });
  });

  it('reports a failed provider save', async () => {
    signedIn({
      'GET /api/admin/settings/pricing': () => json(200, pricing),
      'GET /api/admin/settings/gupshup': () => json(200, gupshup),
      'PUT /api/admin/settings/gupshup': () => json(500, {}),
    });
    renderApp('/admin/settings');
    fireEvent.click(await screen.findByRole('button', { name: 'Guardar configuración' }));
    expect(await screen.findByText('Failed to save settings.')).toBeTruthy();
  });
});

describe('WhatsApp activity for the operator', () => {
  const silent = [{ tenantId: 't1', name: 'Acme', slug: 'acme', lastInboundMessageAt: new Date(Date.now() - 30 * 3_600_000).toISOString() }];
  const emptyActivity = {
    lastInboundMessageAt: null,
    lastStatusAt: null,
    hours: [],
    refusedDeliveries: [],
    failedSends: [],
    failedJobs: [{ id: 'j9', name: 'bulk-sends.send-chunk', label: 'Enviar un tramo de un envío masivo', lastError: 'timeout', attempts: 8, failedAt: null }],
  };

  it('lists the companies without customer messages for the chosen time and opens one company’s activity', async () => {
    const api = signedIn({
      'GET /api/admin/whatsapp-activity/silent-companies?hours=24': () => json(200, silent),
      'GET /api/admin/whatsapp-activity/silent-companies?hours=168': () => json(200, []),
      'GET /api/admin/tenants/t1/whatsapp-activity': () => json(200, emptyActivity),
      'POST /api/admin/tenants/t1/whatsapp-activity/jobs/j9/retry': () => json(200, { id: 'j9', status: 'pending' }),
    });
    renderApp('/admin/dashboard');
    const card = await screen.findByRole('region', { name: 'Empresas sin mensajes entrantes' });
    expect((await within(card).findByTestId('silent-company')).textContent).toContain('hace 1 día');
    fireEvent.click(within(card).getByRole('button', { name: 'Actividad WhatsApp de Acme' }));
    const dialog = await screen.findByRole('dialog', { name: 'Actividad WhatsApp · Acme' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Reintentar: Enviar un tramo de un envío masivo' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/admin/tenants/t1/whatsapp-activity/jobs/j9/retry')).toHaveLength(1));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Salir del diálogo' }));
    fireEvent.change(within(card).getByLabelText('Sin mensajes desde hace'), { target: { value: '168' } });
    expect(await within(card).findByText('Ninguna: todas las empresas con tráfico siguen recibiendo mensajes.')).toBeTruthy();
  });
});
