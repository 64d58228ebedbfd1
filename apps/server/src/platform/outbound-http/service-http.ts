import { request, errors } from 'undici';

export interface ServiceAnswer {
  status: number;
  ok: boolean;
  text: string;
}

/** No answer in time, or an answer cut short: the request may have reached the other side, or not. */
export class ServiceCallUncertain extends Error {}

/**
 * A request to a service whose address the operator or the code chose (the messaging providers' APIs, the sandbox's
 * callbacks), not a URL a company typed (that is outbound-http.guard.ts). undici's `request` on its shared keep-alive
 * pool: `fetch` with `AbortSignal.timeout` cost 0.81 ms of CPU a request here against 0.24 ms (client and a trivial
 * server), and a campaign message makes five such requests in the sandbox (its send and four status callbacks).
 *
 * `timeoutMs` bounds the wait for the answer's headers and then for each part of its body, the answers being small.
 * A failure before any answer (a refused connection) is thrown as it is: as with `fetch`, the caller takes it as not
 * sent.
 */
export async function callService(
  url: string | URL,
  init: { method: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: string | Uint8Array; timeoutMs: number },
): Promise<ServiceAnswer> {
  let response: Awaited<ReturnType<typeof request>>;
  try {
    response = await request(url, { method: init.method, headers: init.headers, body: init.body, headersTimeout: init.timeoutMs, bodyTimeout: init.timeoutMs });
  } catch (error) {
    if (error instanceof errors.HeadersTimeoutError) throw new ServiceCallUncertain(error.message);
    throw error;
  }
  try {
    const text = await response.body.text();
    return { status: response.statusCode, ok: response.statusCode >= 200 && response.statusCode < 300, text };
  } catch (error) {
    throw new ServiceCallUncertain((error as Error).message);
  }
}
