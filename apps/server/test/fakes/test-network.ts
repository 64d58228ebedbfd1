import net from 'node:net';
import type { OutboundConnect, OutboundLookup } from '../../src/platform/outbound-http/outbound-http.guard.ts';

/**
 * Public addresses the tests pretend to reach. A connection to one of them lands on the test's local
 * "public" listener; any other address is dialled for real, so an address the client wrongly let
 * through reaches the real loopback listener and the test sees it there.
 */
export const PUBLIC_TEST_ADDRESSES = new Set([
  '93.184.215.14',
  '8.8.8.8',
  '2606:4700:4700::1111',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '2002:808:808::1',
  '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
]);

/**
 * Stands in for DNS and the internet: names resolve through a fixed table (every lookup recorded) and
 * connections to PUBLIC_TEST_ADDRESSES go to `publicPort` on loopback (every dial recorded).
 */
export function testNetwork(publicPort: number, table: Record<string, string[]>) {
  const lookups: string[] = [];
  const dialled: Array<{ address: string; port: number }> = [];
  const lookup: OutboundLookup = async (hostname) => {
    lookups.push(hostname);
    const answer = table[hostname.replace(/\.$/, '').toLowerCase()];
    if (!answer) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return answer.map((address) => ({ address, family: net.isIP(address) }));
  };
  const connect: OutboundConnect = (target) => {
    dialled.push(target);
    return PUBLIC_TEST_ADDRESSES.has(target.address)
      ? net.connect({ host: '127.0.0.1', port: publicPort })
      : net.connect({ host: target.address, port: target.port });
  };
  return { lookup, connect, lookups, dialled };
}
