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
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '-1' }, 'TRUST_PROXY'],
    [{ SESSION_IDLE_DAYS: 'abc' }, 'SESSION_IDLE_DAYS'],
    [{ SESSION_IDLE_DAYS: '0' }, 'SESSION_IDLE_DAYS'],
    [{ SESSION_MAX_DAYS: '-5' }, 'SESSION_MAX_DAYS'],
    [{ SESSION_IDLE_DAYS: '60', SESSION_MAX_DAYS: '30' }, 'SESSION_IDLE_DAYS'],
  ])('fails with one line naming the variable for %o', (env, variable) => {
    expect(() => loadConfig(env)).toThrowError(new RegExp(`^Invalid configuration: ${variable} [^\\n]+$`));
  });

  it('trusts no proxy by default, and takes a hop count or a list of proxy addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10 ,::1,fd00::/8,loopback' }).trustProxy)
      .toEqual(['10.0.0.0/8', '192.168.1.10', '::1', 'fd00::/8', 'loopback']);
  });

  it('explains TRUST_PROXY in one line when it is refused', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrowError(
      'Invalid configuration: TRUST_PROXY must be false, a hop count such as 1, or a comma-separated list of proxy addresses or CIDRs such as 10.0.0.0/8 (never true: any client could pick its address)',
    );
  });

  it('keeps sessions 30 idle days and 90 days at most unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ sessionIdleDays: 30, sessionMaxDays: 90 });
    expect(loadConfig({ SESSION_IDLE_DAYS: '7', SESSION_MAX_DAYS: '30' })).toMatchObject({ sessionIdleDays: 7, sessionMaxDays: 30 });
  });
});
