import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import { isNonPublicAddress } from './address-policy.ts';

/**
 * The one HTTP client for URLs the outside world chose: bot webhook and image nodes (a tenant types
 * the URL) and inbound media downloads (a webhook names it). Each hop resolves the name once, refuses
 * non-public addresses (address-policy.ts), and connects to exactly the address it checked, so a second
 * DNS answer cannot slip past; at most 3 redirects, each checked the same way; time and size capped;
 * http and https only (docs/decisions/0009).
 */
export interface OutboundRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface OutboundResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

export type ResolvedAddress = { address: string; family: number };
/** Name resolution: every address the name has. Tests inject a fixed table. */
export type OutboundLookup = (hostname: string) => Promise<ResolvedAddress[]>;
/** Opens the TCP connection to an address that passed the checks. Tests route it to a local listener. */
export type OutboundConnect = (target: { address: string; port: number }) => net.Socket;

export interface OutboundHttpOptions {
  /** Loopback and private networks are reachable only when the operator says so (OUTBOUND_ALLOW_PRIVATE). */
  allowPrivateNetworks?: boolean;
  /** When set, only hosts it accepts may be reached, on every hop (provider media). */
  allowHost?: (hostname: string) => boolean;
  /** The whole exchange, redirects included. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  maxRedirects?: number;
  lookup?: OutboundLookup;
  connect?: OutboundConnect;
}

export type OutboundHttp = (request: OutboundRequest) => Promise<OutboundResponse>;

/** The URL may not be fetched: trying again will not change that. */
export class OutboundRefused extends Error {}
/** No complete answer within the time limit. */
export class OutboundTimeout extends Error {}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;
export const DEFAULT_OUTBOUND_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_OUTBOUND_REDIRECTS = 3;

export const INVALID_URL = 'La URL no es válida.';
export const HTTP_ONLY = 'Solo se admiten URLs http o https.';
export const REFUSED_ADDRESS = 'La URL apunta a una dirección privada o local: no está permitida.';
export const HOST_NOT_ALLOWED = 'La URL apunta a un servidor no permitido.';
export const TOO_MANY_REDIRECTS = `La URL redirige más de ${MAX_OUTBOUND_REDIRECTS} veces.`;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const systemLookup: OutboundLookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });
const directConnect: OutboundConnect = ({ address, port }) => net.connect({ host: address, port });

/** The name as DNS knows it: no brackets, no trailing dot, lower case. */
const bareHost = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

function parse(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OutboundRefused(INVALID_URL);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new OutboundRefused(HTTP_ONLY);
  return parsed;
}

export function createOutboundHttp(options: OutboundHttpOptions = {}): OutboundHttp {
  const timeoutMs = options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_OUTBOUND_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? MAX_OUTBOUND_REDIRECTS;
  const allowPrivate = options.allowPrivateNetworks ?? false;
  const lookup = options.lookup ?? systemLookup;
  const connect = options.connect ?? directConnect;

  /** Scheme, host and address of one hop; answers the single address the connection will use. */
  async function checkedAddress(url: URL, signal: AbortSignal): Promise<string> {
    const host = bareHost(url);
    if (options.allowHost && !options.allowHost(host)) throw new OutboundRefused(HOST_NOT_ALLOWED);
    if (net.isIP(host)) {
      if (!allowPrivate && isNonPublicAddress(host)) throw new OutboundRefused(REFUSED_ADDRESS);
      return host;
    }
    // RFC 6761: these names are the host itself, whatever a resolver says.
    if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) throw new OutboundRefused(REFUSED_ADDRESS);
    const addresses = await untilAborted(lookup(url.hostname), signal);
    const first = addresses[0];
    if (!first) throw new OutboundRefused(`No se encontró la dirección de ${host}.`);
    // Every answer is judged, not only the one used: a mixed answer is a rebinding attempt.
    if (!allowPrivate && addresses.some((entry) => isNonPublicAddress(entry.address))) throw new OutboundRefused(REFUSED_ADDRESS);
    return first.address;
  }

  function exchange(url: URL, address: string, request: Required<Pick<OutboundRequest, 'method' | 'headers'>> & { body?: string }, signal: AbortSignal) {
    return new Promise<{ status: number; location?: string; contentType: string; body: Buffer }>((resolve, reject) => {
      const secure = url.protocol === 'https:';
      const port = Number(url.port) || (secure ? 443 : 80);
      const host = bareHost(url);
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      // The socket goes to the checked address; TLS still verifies the certificate against the URL's name.
      const createConnection = () => {
        const socket = connect({ address, port });
        return secure ? tls.connect({ socket, host, servername: net.isIP(host) ? undefined : host }) : socket;
      };
      const outgoing = (secure ? https : http).request(url, {
        method: request.method,
        // Without an agent Node knows no default port and would write it into the Host header.
        defaultPort: secure ? 443 : 80,
        headers: { 'user-agent': 'Embudo/1.0', ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
        createConnection,
        signal,
      });
      outgoing.on('error', reject);
      outgoing.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const contentType = String(response.headers['content-type'] ?? '');
        if (REDIRECTS.has(status) && response.headers.location) {
          response.resume();
          return resolve({ status, location: response.headers.location, contentType, body: Buffer.alloc(0) });
        }
        const tooBig = () => {
          outgoing.destroy();
          reject(new OutboundRefused(`La respuesta supera el límite de ${Math.round(maxBytes / 1024)} KB.`));
        };
        if (Number(response.headers['content-length'] ?? 0) > maxBytes) return tooBig();
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) tooBig();
          else chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('end', () => resolve({ status, contentType, body: Buffer.concat(chunks) }));
      });
      outgoing.end(body);
    });
  }

  return async (request) => {
    const controller = new AbortController();
    const timeout = new OutboundTimeout(`Sin respuesta en ${Math.round(timeoutMs / 1000)} s.`);
    const deadline = setTimeout(() => controller.abort(timeout), timeoutMs);
    let url = parse(request.url);
    let hop = { method: request.method ?? 'GET', headers: request.headers ?? {}, body: request.body };
    try {
      for (let redirects = 0; ; redirects++) {
        const address = await checkedAddress(url, controller.signal);
        const answer = await exchange(url, address, hop, controller.signal);
        if (answer.location === undefined) return { status: answer.status, contentType: answer.contentType, body: answer.body };
        if (redirects >= maxRedirects) throw new OutboundRefused(TOO_MANY_REDIRECTS);
        const next = parse(new URL(answer.location, url));
        // As browsers do: 303, and 301/302 after a POST, continue as a GET without the body.
        if (answer.status === 303 || (hop.method === 'POST' && (answer.status === 301 || answer.status === 302))) {
          hop = { method: 'GET', headers: withoutContentHeaders(hop.headers), body: undefined };
        }
        // The caller's headers (a bearer token) were meant for the first origin only.
        if (next.origin !== url.origin) hop = { ...hop, headers: hop.body === undefined ? {} : pick(hop.headers, 'content-type') };
        url = next;
      }
    } catch (error) {
      throw controller.signal.aborted ? timeout : error;
    } finally {
      clearTimeout(deadline);
    }
  };
}

function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const withoutContentHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).filter(([name]) => !/^content-/i.test(name)));
const pick = (headers: Record<string, string>, wanted: string) => Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() === wanted));
