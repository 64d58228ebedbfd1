import { vi } from 'vitest';

export interface FakeCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

type Handler = (call: FakeCall) => Response | Promise<Response>;

export function json(status: number, body: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * Replaces fetch, the client's network boundary, with handlers keyed "METHOD /path".
 * Unknown calls answer 404 like the server would; every call is recorded.
 */
export function installFakeApi(handlers: Record<string, Handler>) {
  const calls: FakeCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const call: FakeCall = {
      method: init?.method ?? 'GET',
      url: String(input),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body,
      headers: (init?.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const handler = handlers[`${call.method} ${call.url}`];
    return handler ? handler(call) : json(404, { code: 'NOT_FOUND', message: `Sin ruta falsa para ${call.method} ${call.url}` });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (method: string, url: string) => calls.filter((call) => call.method === method && call.url === url),
    setHandler: (key: string, handler: Handler) => {
      handlers[key] = handler;
    },
  };
}
