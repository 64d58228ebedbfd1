import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';

const INDEX = '<!doctype html><title>index</title>';
const BOOT = 'fetch("/t/acme/api/funnels/shown-board")';
const BOARD = `<!doctype html><title>board</title><script>${BOOT}</script><link rel="modulepreload" href="/assets/BoardPage.js">`;
const LANDING = '<!doctype html><title>landing</title><link rel="modulepreload" href="/assets/LandingPage.js">';

const MAIN_BUNDLE = `console.log(${JSON.stringify('x'.repeat(300_000))});`;

function webBuild(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-web-'));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('the web build', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = webBuild({
      'index.html': INDEX,
      'board.html': BOARD,
      'landing.html': LANDING,
      'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'assets/index-Cx1b2c3d.js': MAIN_BUNDLE,
      'assets/index-Dx1b2c3d.css': 'body{margin:0}',
    });
    t = await buildTestApp({ webDist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  const page = async (url: string) => {
    const response = await t.app.inject({ method: 'GET', url });
    return { status: response.statusCode, type: response.headers['content-type'], body: response.body };
  };

  it.each(['/t/acme', '/t/acme/', '/t/acme?x=1'])('%s, the board, gets the document that preloads its code', async (url) => {
    expect(await page(url)).toEqual({ status: 200, type: 'text/html; charset=utf-8', body: BOARD });
  });

  it.each(['/', '/?lang=en'])('%s, the landing, gets the document that preloads its code', async (url) => {
    expect(await page(url)).toEqual({ status: 200, type: 'text/html; charset=utf-8', body: LANDING });
  });

  it.each(['/login', '/register', '/t/acme/agenda', '/t/acme/templates/new', '/admin'])('%s gets index.html', async (url) => {
    expect(await page(url)).toEqual({ status: 200, type: 'text/html; charset=utf-8', body: INDEX });
  });

  it('serves the hashed assets whole, to be kept for a year', async () => {
    const script = await t.app.inject({ method: 'GET', url: '/assets/index-Cx1b2c3d.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.body).toBe(MAIN_BUNDLE);
    const style = await t.app.inject({ method: 'GET', url: '/assets/index-Dx1b2c3d.css' });
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(style.body).toBe('body{margin:0}');
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-Cx1b2c3d.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(MAIN_BUNDLE)));
  });

  it('serves the files outside assets/, whose names do not change with their content, to be checked each time', async () => {
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('an unknown API path is still a 404 in JSON', async () => {
    const response = await page('/t/acme/api/nothing');
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it.each(['/t/acme', '/assets/index-Cx1b2c3d.js', '/t/acme/api/nothing'])('%s carries the security headers', async (url) => {
    const { headers } = await t.app.inject({ method: 'GET', url });
    expect(headers['content-security-policy']).toContain("connect-src 'self' ws: wss:");
    expect(headers['content-security-policy']).toContain("img-src 'self' data: blob:");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toBeDefined();
  });

  it("allows the board document's inline boot script by its hash, and no other inline script", async () => {
    const csp = (await t.app.inject({ method: 'GET', url: '/t/acme' })).headers['content-security-policy'] as string;
    const scriptSources = /script-src ([^;]*)/.exec(csp)![1]!.split(' ');
    const hashOf = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
    expect(scriptSources).toEqual(["'self'", hashOf(BOOT)]);
  });

  it("a provider's webhook call is answered without them (a machine renders nothing)", async () => {
    const { statusCode, headers } = await t.app.inject({ method: 'POST', url: '/webhooks/gupshup/nobody/wrong-secret', payload: {} });
    // Refused (no such company), as any webhook call it cannot place is.
    expect(statusCode).toBe(401);
    expect(headers['content-security-policy']).toBeUndefined();
    expect(headers['x-content-type-options']).toBeUndefined();
  });
});

describe('a web build without board.html and landing.html', () => {
  it('serves index.html on the board and the landing too', async () => {
    const webDist = webBuild({ 'index.html': INDEX });
    const t = await buildTestApp({ webDist });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/t/acme' })).body).toBe(INDEX);
      expect((await t.app.inject({ method: 'GET', url: '/' })).body).toBe(INDEX);
    } finally {
      await t.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    }
  });
});
