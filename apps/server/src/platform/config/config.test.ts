import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to embedded mode: PGlite under ./data, sandbox provider, demo seed, port 3000', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '0.0.0.0', mode: 'embedded', providerMode: 'sandbox', seedDemo: true });
    expect(config.dataDir.endsWith('/data')).toBe(true);
  });

  it('switches to server mode with DATABASE_URL: live provider, no demo seed', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(config).toMatchObject({ mode: 'server', providerMode: 'live', seedDemo: false, redisUrl: 'redis://127.0.0.1:6379' });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).mode).toBe('embedded');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ APP_SECRET: 'short' }, 'APP_SECRET'],
    [{ ADMIN_EMAIL: 'nope' }, 'ADMIN_EMAIL'],
    [{ SEED_DEMO: 'maybe' }, 'SEED_DEMO'],
    [{ PROVIDER_MODE: 'fake' }, 'PROVIDER_MODE'],
    [{ GUPSHUP_API_URL: 'not a url' }, 'GUPSHUP_API_URL'],
  ])('fails with one line naming the variable for %o', (env, variable) => {
    expect(() => loadConfig(env)).toThrowError(new RegExp(`^Invalid configuration: ${variable} [^\\n]+$`));
  });
});
