import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';

/**
 * Outbound HTTP to URLs that tenants type in (bot webhook and image nodes, AI webhook tools).
 * Refuses loopback, link-local, private and other non-public addresses unless the operator allows
 * them, checks the address the socket really connects to (so DNS rebinding cannot slip past), never
 * follows redirects, and caps both the time and the size of the answer.
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

export interface OutboundHttpOptions {
  /** Loopback and private networks are reachable only when the operator says so (tests, on-premise setups). */
  allowPrivateNetworks?: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export type OutboundHttp = (request: OutboundRequest) => Promise<OutboundResponse>;

export class OutboundRefused extends Error {}

export const DEFAULT_OUTBOUND_TIMEOUT_MS = 10_000;
export const DEFAULT_OUTBOUND_MAX_BYTES = 5 * 1024 * 1024;

const blockedV4 = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blockedV4.addSubnet(address, prefix, 'ipv4');
const blockedV6 = new net.BlockList();
for (const [address, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  blockedV6.addSubnet(address, prefix, 'ipv6');
}

/** True for addresses that are not on the public internet (loopback, private, link-local, reserved). */
export function isNonPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blockedV4.check(mapped[1]!, 'ipv4');
  return blockedV6.check(address, 'ipv6');
}

export const REFUSED_ADDRESS = 'La URL apunta a una dirección privada o local: no está permitida.';

export function createOutboundHttp(options: OutboundHttpOptions = {}): OutboundHttp {
  const timeoutMs = options.timeoutMs ?? DEFAULT_OUTBOUND_TIMEOUT_MS;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_OUTBOUND_MAX_BYTES;
  const allowPrivate = options.allowPrivateNetworks ?? false;

  // Every address the socket may use is checked here, after resolution, at connect time.
  const guardedLookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as dns.LookupAddress[];
      if (!allowPrivate && list.some((entry) => isNonPublicAddress(entry.address))) {
        return callback(new OutboundRefused(REFUSED_ADDRESS), '', 0);
      }
      if (lookupOptions.all) return (callback as unknown as (err: null, all: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`no address for ${hostname}`), '', 0);
      return callback(null, first.address, first.family);
    });
  };

  return (request) =>
    new Promise<OutboundResponse>((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return reject(new OutboundRefused('La URL no es válida.'));
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return reject(new OutboundRefused('Solo se admiten URLs http o https.'));
      const literal = url.hostname.replace(/^\[|\]$/g, '');
      if (net.isIP(literal) && !allowPrivate && isNonPublicAddress(literal)) return reject(new OutboundRefused(REFUSED_ADDRESS));

      const client = url.protocol === 'https:' ? https : http;
      const body = request.body === undefined ? undefined : Buffer.from(request.body);
      let settled = false;
      const outgoing = client.request(url, {
        method: request.method ?? 'GET',
        headers: { 'user-agent': 'Embudo-Bot/1.0', ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
        lookup: guardedLookup,
      });
      // Settles once, whichever of answer, error, size cap or deadline comes first.
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        outgoing.destroy();
        reject(error);
      };
      const deadline = setTimeout(() => fail(new OutboundRefused(`Sin respuesta en ${Math.round(timeoutMs / 1000)} s.`)), timeoutMs);
      outgoing.on('error', fail);
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) fail(new OutboundRefused(`La respuesta supera el límite de ${Math.round(maxBytes / 1024)} KB.`));
          else chunks.push(chunk);
        });
        response.on('error', fail);
        response.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          resolve({ status: response.statusCode ?? 0, contentType: String(response.headers['content-type'] ?? ''), body: Buffer.concat(chunks) });
        });
      });
      outgoing.end(body);
    });
}
