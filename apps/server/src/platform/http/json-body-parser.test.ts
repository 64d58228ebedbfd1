import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/support/build-test-app.ts';
import { bearer, registerTenant } from '../../../test/support/factories.ts';
import { JSON_TOO_DEEP } from './json-body-parser.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => t.close());

const json = { 'content-type': 'application/json' };

describe('JSON bodies', () => {
  it('treats an empty body sent as application/json as no body on calls that take none', async () => {
    const owner = await registerTenant(t.app);
    const headers = { ...bearer(owner.token), ...json };
    const service = await t.app.inject({ method: 'POST', url: '/api/agenda/services', headers, payload: { name: 'Corte' } });
    expect(service.statusCode).toBe(201);

    const removed = await t.app.inject({ method: 'DELETE', url: `/api/agenda/services/${service.json().id}`, headers, body: '' });
    expect(removed.statusCode).toBe(204);
    const synced = await t.app.inject({ method: 'POST', url: '/api/templates/sync', headers, body: '' });
    expect(synced.statusCode).toBe(200);
    expect(synced.json()).toMatchObject({ synced: 0, templates: [] });
  });

  it('still answers 400 with a clear message to an empty, malformed or poisoned body where one is needed', async () => {
    const owner = await registerTenant(t.app);
    const headers = { ...bearer(owner.token), ...json };
    const empty = await t.app.inject({ method: 'POST', url: '/api/agenda/services', headers, body: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('El cuerpo de la solicitud está vacío.');
    const missing = await t.app.inject({ method: 'POST', url: '/api/agenda/services', headers: bearer(owner.token) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('El cuerpo de la solicitud está vacío.');
    const malformed = await t.app.inject({ method: 'POST', url: '/api/agenda/services', headers, body: '{"name":' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('El cuerpo de la solicitud no es JSON válido.');
    const poisoned = await t.app.inject({ method: 'POST', url: '/api/agenda/services', headers, body: '{"name":"Corte","__proto__":{"admin":true}}' });
    expect(poisoned.statusCode).toBe(400);

    const services = await t.app.inject({ method: 'GET', url: '/api/agenda/data', headers: bearer(owner.token) });
    expect(services.json().services).toEqual([]);
  });

  it('refuses a body nested deeper than 64 levels before parsing it, and one over 1 MB, with clear messages', async () => {
    const owner = await registerTenant(t.app);
    const headers = { ...bearer(owner.token), ...json };
    const deep = await t.app.inject({
      method: 'POST',
      url: '/api/agenda/services',
      headers,
      body: `{"name":"Corte","extra":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json().message).toBe(JSON_TOO_DEEP);
    const justDeepEnough = await t.app.inject({
      method: 'POST',
      url: '/api/agenda/services',
      headers,
      body: `{"name":"Corte","extra":${'['.repeat(63)}${']'.repeat(63)}}`,
    });
    expect(justDeepEnough.statusCode).toBe(201);
    const huge = await t.app.inject({ method: 'POST', url: '/api/agenda/services', headers, body: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }) });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('El cuerpo de la solicitud es demasiado grande.');

    const services = await t.app.inject({ method: 'GET', url: '/api/agenda/data', headers: bearer(owner.token) });
    expect(services.json().services.map((service: { name: string }) => service.name)).toEqual(['Corte']);
  });
});
