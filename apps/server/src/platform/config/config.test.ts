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
    [{ META_GRAPH_VERSION: '25.0' }, 'META_GRAPH_VERSION'],
    [{ META_GRAPH_VERSION: 'latest' }, 'META_GRAPH_VERSION'],
    [{ META_GRAPH_URL: 'graph.facebook.com' }, 'META_GRAPH_URL'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '-1' }, 'TRUST_PROXY'],
    [{ SESSION_IDLE_DAYS: 'abc' }, 'SESSION_IDLE_DAYS'],
    [{ SESSION_IDLE_DAYS: '0' }, 'SESSION_IDLE_DAYS'],
    [{ SESSION_MAX_DAYS: '-5' }, 'SESSION_MAX_DAYS'],
    [{ SESSION_IDLE_DAYS: '60', SESSION_MAX_DAYS: '30' }, 'SESSION_IDLE_DAYS'],
    [{ AI_PROVIDER: 'claude' }, 'AI_PROVIDER'],
    [{ AI_PROVIDER: 'gemini' }, 'GEMINI_API_KEY'],
    [{ AI_PROVIDER: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }, 'OPENAI_MODEL'],
    [{ AI_PROVIDER: 'openai', OPENAI_MODEL: 'llama3.1' }, 'OPENAI_BASE_URL'],
    [{ OPENAI_BASE_URL: 'ftp://x' }, 'OPENAI_BASE_URL'],
  ])('fails with one line naming the variable for %o', (env, variable) => {
    expect(() => loadConfig(env)).toThrowError(new RegExp(`^Invalid configuration: ${variable} [^\\n]+$`));
  });

  it("talks to Meta's Graph API at v25.0 unless told another version", () => {
    expect(loadConfig({})).toMatchObject({ metaGraphVersion: 'v25.0', metaGraphUrl: 'https://graph.facebook.com' });
    expect(loadConfig({ META_GRAPH_VERSION: 'v24.0', META_GRAPH_URL: 'http://127.0.0.1:9100' })).toMatchObject({
      metaGraphVersion: 'v24.0',
      metaGraphUrl: 'http://127.0.0.1:9100',
    });
  });

  it('trusts no proxy by default, and takes a hop count or a list of proxy addresses and CIDRs', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.10 ,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.10',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
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

  it("runs 10 jobs at once with the database's default share for jobs unless told otherwise, and refuses nonsense", () => {
    expect(loadConfig({})).toMatchObject({ jobConcurrency: 10, jobDbConnections: undefined });
    expect(loadConfig({ JOB_CONCURRENCY: '40', JOB_DB_CONNECTIONS: '3' })).toMatchObject({ jobConcurrency: 40, jobDbConnections: 3 });
    expect(() => loadConfig({ JOB_CONCURRENCY: '0' })).toThrow('Invalid configuration: JOB_CONCURRENCY must be at least 1');
    expect(() => loadConfig({ JOB_DB_CONNECTIONS: 'half' })).toThrow('Invalid configuration: JOB_DB_CONNECTIONS must be a number');
  });

  it('runs the sandbox model in embedded mode and Gemini in server mode only with a key', () => {
    expect(loadConfig({})).toMatchObject({ aiProvider: 'sandbox', geminiModel: 'gemini-2.5-flash', geminiEmbeddingModel: 'gemini-embedding-001' });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).aiProvider).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', GEMINI_API_KEY: 'k' }).aiProvider).toBe('gemini');
    // A key set for `npm start` is used: the sandbox model is only for when there is none.
    expect(loadConfig({ GEMINI_API_KEY: 'k' }).aiProvider).toBe('gemini');
    expect(
      loadConfig({ AI_PROVIDER: 'gemini', GEMINI_API_KEY: 'k', GEMINI_MODEL: 'gemini-2.5-pro', GEMINI_EMBEDDING_MODEL: 'gemini-embedding-2' }),
    ).toMatchObject({
      aiProvider: 'gemini',
      geminiModel: 'gemini-2.5-pro',
      geminiEmbeddingModel: 'gemini-embedding-2',
    });
  });

  it('takes an OpenAI-compatible server by URL alone (local) or by key (OpenAI itself)', () => {
    expect(loadConfig({ AI_PROVIDER: 'openai', OPENAI_MODEL: 'llama3.1', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' })).toMatchObject({
      aiProvider: 'openai',
      openaiBaseUrl: 'http://127.0.0.1:11434/v1',
      openaiApiKey: undefined,
      openaiTranscribeModel: 'whisper-1',
      // No embedding model named: retrieval stays lexical.
      openaiEmbeddingModel: undefined,
    });
    expect(
      loadConfig({ AI_PROVIDER: 'openai', OPENAI_MODEL: 'gpt-4o-mini', OPENAI_API_KEY: 'sk-test', OPENAI_EMBEDDING_MODEL: 'text-embedding-3-small' }),
    ).toMatchObject({
      openaiBaseUrl: 'https://api.openai.com/v1',
      openaiApiKey: 'sk-test',
      openaiEmbeddingModel: 'text-embedding-3-small',
    });
  });
});
