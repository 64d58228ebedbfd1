import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  apiRequest,
  configureApiClient,
  earlyAnswer,
  onPasswordChangeRequired,
  onSessionExpired,
  requestEarly,
  SERVER_ERROR_MESSAGE,
  SESSION_EXPIRED_MESSAGE,
  UNKNOWN_ERROR_MESSAGE,
} from './api-client.ts';
import { ApiError } from './api-error.ts';

const fetchMock = vi.fn<typeof fetch>();
const navigate = vi.fn<(to: string) => void>();

function json(status: number, body: unknown, statusText = '') {
  return new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });
}

function lastCall() {
  const [url, init] = fetchMock.mock.calls.at(-1) ?? [];
  const headers = (init?.headers ?? {}) as Record<string, string>;
  return { url: String(url), init, headers };
}

function storeTenantSession(slug = 'acme') {
  localStorage.setItem('auth_token', 'tenant-token');
  localStorage.setItem('auth_user', JSON.stringify({ id: 'u1', name: 'Ana' }));
  localStorage.setItem('auth_tenant', JSON.stringify({ id: 't1', slug }));
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  configureApiClient({ navigate });
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  navigate.mockReset();
});

describe('bearer token', () => {
  it('sends the tenant token on tenant calls', async () => {
    storeTenantSession();
    fetchMock.mockResolvedValue(json(200, { ok: true }));
    await apiRequest('/api/funnels/summary');
    expect(lastCall().headers.authorization).toBe('Bearer tenant-token');
  });

  it('sends the admin token on /api/admin calls', async () => {
    storeTenantSession();
    localStorage.setItem('admin_auth_token', 'admin-token');
    fetchMock.mockResolvedValue(json(200, {}));
    await apiRequest('/api/admin/stats');
    expect(lastCall().headers.authorization).toBe('Bearer admin-token');
  });

  it('sends the admin token on any call made from a page under /admin', async () => {
    storeTenantSession();
    localStorage.setItem('admin_auth_token', 'admin-token');
    window.history.replaceState(null, '', '/admin/tenants');
    fetchMock.mockResolvedValue(json(200, {}));
    await apiRequest('/api/auth/me');
    expect(lastCall().headers.authorization).toBe('Bearer admin-token');
  });

  it('does not use the admin token on a page that merely starts with "admin"', async () => {
    storeTenantSession();
    localStorage.setItem('admin_auth_token', 'admin-token');
    window.history.replaceState(null, '', '/administracion');
    fetchMock.mockResolvedValue(json(200, {}));
    await apiRequest('/api/auth/me');
    expect(lastCall().headers.authorization).toBe('Bearer tenant-token');
  });

  it('sends no authorization header when nobody is signed in', async () => {
    fetchMock.mockResolvedValue(json(200, { available: true }));
    await apiRequest('/api/tenants/check-slug/acme');
    expect(lastCall().headers.authorization).toBeUndefined();
  });
});

describe('tenant path prefix', () => {
  beforeEach(() => {
    storeTenantSession('acme');
    fetchMock.mockImplementation(async () => json(200, {}));
  });

  it.each([
    ['/api/funnels/summary', '/t/acme/api/funnels/summary'],
    ['/api/users/u1', '/t/acme/api/users/u1'],
    ['/api/templates?status=APPROVED', '/t/acme/api/templates?status=APPROVED'],
    ['/t/acme/api/usage', '/t/acme/api/usage'],
    ['/t/other/api/usage', '/t/other/api/usage'],
    ['/api/auth/me', '/api/auth/me'],
    ['/api/tenants/check-slug/acme', '/api/tenants/check-slug/acme'],
    ['/api/admin/tenants', '/api/admin/tenants'],
  ])('%s is called as %s', async (path, expected) => {
    await apiRequest(path);
    expect(lastCall().url).toBe(expected);
  });
});

describe('401 answers', () => {
  it('clear the tenant session, redirect to /login and fail with the session-expired message', async () => {
    storeTenantSession();
    const expired = vi.fn();
    const stop = onSessionExpired(expired);
    fetchMock.mockResolvedValue(json(401, { code: 'UNAUTHORIZED', message: 'Sesión inválida' }));

    const error = await failureOf(apiRequest('/api/funnels/summary'));

    expect(error.message).toBe(SESSION_EXPIRED_MESSAGE);
    expect(error.status).toBe(401);
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(localStorage.getItem('auth_user')).toBeNull();
    expect(localStorage.getItem('auth_tenant')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(expired).toHaveBeenCalledWith('tenant');
    stop();
  });

  it('on an admin path clear the admin session only and redirect to /admin/login', async () => {
    storeTenantSession();
    localStorage.setItem('admin_auth_token', 'admin-token');
    localStorage.setItem('admin_user', '{}');
    fetchMock.mockResolvedValue(json(401, { message: 'no' }));

    const error = await failureOf(apiRequest('/api/admin/stats'));

    expect(error.message).toBe(SESSION_EXPIRED_MESSAGE);
    expect(localStorage.getItem('admin_auth_token')).toBeNull();
    expect(localStorage.getItem('admin_user')).toBeNull();
    expect(localStorage.getItem('auth_token')).toBe('tenant-token');
    expect(navigate).toHaveBeenCalledWith('/admin/login');
  });

  it.each(['/api/auth/login', '/api/auth/register'])('from %s show the server message and keep everything else', async (path) => {
    storeTenantSession();
    fetchMock.mockResolvedValue(json(401, { code: 'UNAUTHORIZED', message: 'Email, contraseña o empresa incorrectos.' }));

    const error = await failureOf(apiRequest(path, { method: 'POST', body: {} }));

    expect(error.message).toBe('Email, contraseña o empresa incorrectos.');
    expect(error.serverMessage).toBe('Email, contraseña o empresa incorrectos.');
    expect(navigate).not.toHaveBeenCalled();
    expect(localStorage.getItem('auth_token')).toBe('tenant-token');
  });
});

describe('other failures', () => {
  it('use the message of a JSON body', async () => {
    fetchMock.mockResolvedValue(json(429, { code: 'TOO_MANY_REQUESTS', message: 'Demasiados intentos.' }));
    const error = await failureOf(apiRequest('/api/auth/login', { method: 'POST', body: {} }));
    expect(error).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', message: 'Demasiados intentos.' });
  });

  it("fall back to 'Server error' for a JSON body without a message", async () => {
    fetchMock.mockResolvedValue(json(500, { code: 'INTERNAL' }));
    const error = await failureOf(apiRequest('/api/usage'));
    expect(error.message).toBe(SERVER_ERROR_MESSAGE);
    expect(error.serverMessage).toBeUndefined();
  });

  it('use the status text for a non-JSON body', async () => {
    fetchMock.mockResolvedValue(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const error = await failureOf(apiRequest('/api/usage'));
    expect(error.message).toBe('Bad Gateway');
  });

  it('fall back to the unknown-error text for a non-JSON body without status text', async () => {
    fetchMock.mockResolvedValue(new Response('oops', { status: 500 }));
    const error = await failureOf(apiRequest('/api/usage'));
    expect(error.message).toBe(UNKNOWN_ERROR_MESSAGE);
  });

  it('fall back to the unknown-error text when the network fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await failureOf(apiRequest('/api/usage'));
    expect(error).toMatchObject({ status: 0, message: UNKNOWN_ERROR_MESSAGE });
  });

  it('announce a required password change', async () => {
    const required = vi.fn();
    const stop = onPasswordChangeRequired(required);
    fetchMock.mockResolvedValue(json(403, { code: 'PASSWORD_CHANGE_REQUIRED', message: 'Debes cambiar tu contraseña.' }));
    const error = await failureOf(apiRequest('/api/usage'));
    expect(error.message).toBe('Debes cambiar tu contraseña.');
    expect(required).toHaveBeenCalledOnce();
    stop();
  });
});

describe('answers without content', () => {
  it.each([
    ['204', () => new Response(null, { status: 204 })],
    ['304', () => new Response(null, { status: 304 })],
    ['an empty 200', () => new Response('', { status: 200 })],
  ])('%s resolves to undefined', async (_name, response) => {
    fetchMock.mockResolvedValue(response());
    await expect(apiRequest('/api/auth/logout', { method: 'POST' })).resolves.toBeUndefined();
  });

  it('a JSON body is parsed', async () => {
    fetchMock.mockResolvedValue(json(200, { available: true }));
    await expect(apiRequest('/api/tenants/check-slug/acme')).resolves.toEqual({ available: true });
  });
});

describe('request bodies', () => {
  it('send plain values as JSON', async () => {
    fetchMock.mockResolvedValue(json(200, {}));
    await apiRequest('/api/auth/login', { method: 'POST', body: { email: 'a@b.co' } });
    expect(lastCall().init?.method).toBe('POST');
    expect(lastCall().init?.body).toBe('{"email":"a@b.co"}');
    expect(lastCall().headers['content-type']).toBe('application/json');
  });

  it('send FormData as multipart, letting the browser set the boundary', async () => {
    fetchMock.mockResolvedValue(json(200, {}));
    const form = new FormData();
    form.append('cardId', 'c1');
    await apiRequest('/api/message/media', { method: 'POST', body: form });
    expect(lastCall().init?.body).toBe(form);
    expect(lastCall().headers['content-type']).toBeUndefined();
  });
});

describe('early answers', () => {
  beforeEach(() => storeTenantSession());

  it("answer the page's own GET of the same URL, once", async () => {
    fetchMock.mockImplementation(async () => json(200, [{ id: 'f1' }]));
    void requestEarly('/api/funnels/summary');
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(lastCall().url).toBe('/t/acme/api/funnels/summary');
    expect(lastCall().headers.authorization).toBe('Bearer tenant-token');
    // Ahead of the scripts the document is still fetching over the same few connections.
    expect(lastCall().init?.priority).toBe('high');

    await expect(apiRequest('/api/funnels/summary')).resolves.toEqual([{ id: 'f1' }]);
    expect(fetchMock).toHaveBeenCalledOnce();
    await apiRequest('/api/funnels/summary');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("started by another copy of this module (board.html's inline boot script), answer this one's call", async () => {
    fetchMock.mockImplementation(async () => json(200, [{ id: 'f1' }]));
    vi.resetModules();
    const bootCopy = await import('./api-client.ts');
    void bootCopy.requestEarly('/api/funnels/summary');
    await expect(apiRequest('/api/funnels/summary')).resolves.toEqual([{ id: 'f1' }]);
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('can be looked at without being taken, by the same session only', async () => {
    fetchMock.mockImplementation(async () => json(200, { ok: true }));
    void requestEarly('/api/funnels/summary');
    expect((await earlyAnswer('/api/funnels/summary'))?.status).toBe(200);
    expect(earlyAnswer('/api/funnels/other')).toBeUndefined();
    localStorage.setItem('auth_token', 'another-token');
    expect(earlyAnswer('/api/funnels/summary')).toBeUndefined();
    localStorage.setItem('auth_token', 'tenant-token');
    await expect(apiRequest('/api/funnels/summary')).resolves.toEqual({ ok: true });
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('are not used by another session, nor by a call other than a GET', async () => {
    fetchMock.mockImplementation(async () => json(200, {}));
    void requestEarly('/api/funnels/summary');
    await apiRequest('/api/funnels/summary', { method: 'POST', body: {} });
    expect(fetchMock).toHaveBeenCalledTimes(2);

    localStorage.setItem('auth_token', 'another-token');
    await apiRequest('/api/funnels/summary');
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(lastCall().headers.authorization).toBe('Bearer another-token');
  });

  it('are not used once older than an answer the query cache counts as fresh (10 s)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    fetchMock.mockImplementation(async () => json(200, {}));
    void requestEarly('/api/funnels/summary');
    vi.setSystemTime(Date.now() + 10_000);
    await apiRequest('/api/funnels/summary');
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('a 401 taken from an early answer expires the session as any other', async () => {
    const expired = vi.fn();
    const stop = onSessionExpired(expired);
    fetchMock.mockResolvedValue(json(401, { code: 'UNAUTHORIZED', message: 'Sesión inválida' }));
    void requestEarly('/api/funnels/summary');

    const error = await failureOf(apiRequest('/api/funnels/summary'));

    expect(error.message).toBe(SESSION_EXPIRED_MESSAGE);
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(localStorage.getItem('auth_token')).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(expired).toHaveBeenCalledWith('tenant');
    stop();
  });

  it('a network failure is reported by the call that takes it, and by nobody before', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    void requestEarly('/api/funnels/summary');
    await new Promise((resolve) => setTimeout(resolve, 0));
    const error = await failureOf(apiRequest('/api/funnels/summary'));
    expect(error).toMatchObject({ status: 0, message: UNKNOWN_ERROR_MESSAGE });
  });
});
