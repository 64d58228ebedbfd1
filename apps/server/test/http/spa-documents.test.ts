import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../support/build-test-app.ts';

const INDEX = '<!doctype html><title>index</title>';
const BOARD = '<!doctype html><title>board</title><link rel="modulepreload" href="/assets/BoardPage.js">';

function webBuild(files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-web-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

describe('the web documents', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = webBuild({ 'index.html': INDEX, 'board.html': BOARD });
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

  it.each(['/', '/login', '/t/acme/agenda', '/t/acme/templates/new', '/admin'])('%s gets index.html', async (url) => {
    expect(await page(url)).toEqual({ status: 200, type: 'text/html; charset=utf-8', body: INDEX });
  });

  it('an unknown API path is still a 404 in JSON', async () => {
    const response = await page('/t/acme/api/nothing');
    expect(response.status).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('a web build without board.html', () => {
  it('serves index.html on the board too', async () => {
    const webDist = webBuild({ 'index.html': INDEX });
    const t = await buildTestApp({ webDist });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/t/acme' });
      expect(response.body).toBe(INDEX);
    } finally {
      await t.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    }
  });
});
