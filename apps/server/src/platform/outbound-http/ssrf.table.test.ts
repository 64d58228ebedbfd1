import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeWebhookServer } from '../../../test/fakes/fake-webhook-server.ts';
import { testNetwork } from '../../../test/fakes/test-network.ts';
import { isNonPublicAddress } from './address-policy.ts';
import { createOutboundHttp, HTTP_ONLY, REFUSED_ADDRESS, TOO_MANY_REDIRECTS } from './outbound-http.guard.ts';

/**
 * Every way a URL can point at this host or a private network, asserted against a real loopback
 * listener that must never see a request. PORT is the listener's port; names resolve through a test table.
 */
type Case = [label: string, url: string, refusal: string];

const literalIPv4: Case[] = [
  ['loopback', 'http://127.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['loopback, another address of 127/8', 'http://127.5.6.7:PORT/secret', REFUSED_ADDRESS],
  ['decimal', 'http://2130706433:PORT/secret', REFUSED_ADDRESS],
  ['hex, one number', 'http://0x7f000001:PORT/secret', REFUSED_ADDRESS],
  ['hex, short', 'http://0x7f.1:PORT/secret', REFUSED_ADDRESS],
  ['octal', 'http://0177.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['octal, one number', 'http://017700000001:PORT/secret', REFUSED_ADDRESS],
  ['octal, short', 'http://0177.1:PORT/secret', REFUSED_ADDRESS],
  ['short, two parts', 'http://127.1:PORT/secret', REFUSED_ADDRESS],
  ['short, three parts', 'http://127.0.1:PORT/secret', REFUSED_ADDRESS],
  ['zero-padded', 'http://127.000.000.001:PORT/secret', REFUSED_ADDRESS],
  ['percent-encoded', 'http://%31%32%37.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['full-width digits', 'http://①②⑦.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['trailing dot', 'http://127.0.0.1.:PORT/secret', REFUSED_ADDRESS],
  ['userinfo', 'http://evil@127.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['userinfo that looks like a host', 'http://public.test@127.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['userinfo with password', 'http://user:pass@127.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['unspecified', 'http://0.0.0.0:PORT/secret', REFUSED_ADDRESS],
  ['unspecified, short', 'http://0:PORT/secret', REFUSED_ADDRESS],
  ['private 10/8', 'http://10.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['private 172.16/12', 'http://172.16.5.4:PORT/secret', REFUSED_ADDRESS],
  ['private 172.31', 'http://172.31.255.254:PORT/secret', REFUSED_ADDRESS],
  ['private 192.168/16', 'http://192.168.1.1:PORT/secret', REFUSED_ADDRESS],
  ['link-local metadata', 'http://169.254.169.254/latest/meta-data/', REFUSED_ADDRESS],
  ['CGNAT 100.64/10', 'http://100.64.0.1:PORT/secret', REFUSED_ADDRESS],
  ['CGNAT upper end', 'http://100.127.255.254:PORT/secret', REFUSED_ADDRESS],
  ['multicast', 'http://224.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['reserved 240/4', 'http://240.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['broadcast', 'http://255.255.255.255:PORT/secret', REFUSED_ADDRESS],
  ['IETF protocol assignments', 'http://192.0.0.8:PORT/secret', REFUSED_ADDRESS],
  ['documentation TEST-NET-1', 'http://192.0.2.1:PORT/secret', REFUSED_ADDRESS],
  ['documentation TEST-NET-2', 'http://198.51.100.7:PORT/secret', REFUSED_ADDRESS],
  ['documentation TEST-NET-3', 'http://203.0.113.9:PORT/secret', REFUSED_ADDRESS],
  ['benchmarking 198.18/15', 'http://198.19.0.1:PORT/secret', REFUSED_ADDRESS],
  ['6to4 relay anycast', 'http://192.88.99.1:PORT/secret', REFUSED_ADDRESS],
  ['localhost', 'http://localhost:PORT/secret', REFUSED_ADDRESS],
  ['localhost, upper case and trailing dot', 'http://LOCALHOST.:PORT/secret', REFUSED_ADDRESS],
  ['a name under .localhost', 'http://app.localhost:PORT/secret', REFUSED_ADDRESS],
];

const literalIPv6: Case[] = [
  ['loopback', 'http://[::1]:PORT/secret', REFUSED_ADDRESS],
  ['loopback, long form', 'http://[0:0:0:0:0:0:0:1]:PORT/secret', REFUSED_ADDRESS],
  ['unspecified', 'http://[::]:PORT/secret', REFUSED_ADDRESS],
  ['IPv4-mapped loopback, dotted', 'http://[::ffff:127.0.0.1]:PORT/secret', REFUSED_ADDRESS],
  ['IPv4-mapped loopback, hex as the URL parser writes it', 'http://[::ffff:7f00:1]:PORT/secret', REFUSED_ADDRESS],
  ['IPv4-mapped loopback, long form', 'http://[0:0:0:0:0:ffff:127.0.0.1]:PORT/secret', REFUSED_ADDRESS],
  ['IPv4-mapped metadata', 'http://[::ffff:a9fe:a9fe]/latest/meta-data/', REFUSED_ADDRESS],
  ['IPv4-mapped private', 'http://[::ffff:10.0.0.1]:PORT/secret', REFUSED_ADDRESS],
  ['IPv4-translated loopback', 'http://[::ffff:0:7f00:1]:PORT/secret', REFUSED_ADDRESS],
  ['IPv4-compatible loopback, hex', 'http://[::7f00:1]:PORT/secret', REFUSED_ADDRESS],
  ['IPv4-compatible loopback, dotted', 'http://[::127.0.0.1]:PORT/secret', REFUSED_ADDRESS],
  ['IPv4-compatible metadata', 'http://[::a9fe:a9fe]/latest/meta-data/', REFUSED_ADDRESS],
  ['NAT64 loopback', 'http://[64:ff9b::7f00:1]:PORT/secret', REFUSED_ADDRESS],
  ['NAT64 metadata, dotted', 'http://[64:ff9b::169.254.169.254]/latest/meta-data/', REFUSED_ADDRESS],
  ['NAT64 private', 'http://[64:ff9b::c0a8:101]:PORT/secret', REFUSED_ADDRESS],
  ['local-use NAT64, whatever it carries', 'http://[64:ff9b:1::808:808]:PORT/secret', REFUSED_ADDRESS],
  ['6to4 of loopback', 'http://[2002:7f00:1::]:PORT/secret', REFUSED_ADDRESS],
  ['6to4 of metadata', 'http://[2002:a9fe:a9fe::1]/latest/meta-data/', REFUSED_ADDRESS],
  ['6to4 of 192.168.1.1', 'http://[2002:c0a8:101::]:PORT/secret', REFUSED_ADDRESS],
  ['Teredo, client 127.0.0.1', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:PORT/secret', REFUSED_ADDRESS],
  ['Teredo, client 169.254.169.254', 'http://[2001:0:4136:e378:8000:63bf:5601:5601]/latest/meta-data/', REFUSED_ADDRESS],
  ['Teredo, client 10.0.0.1', 'http://[2001:0:4136:e378:8000:63bf:f5ff:fffe]:PORT/secret', REFUSED_ADDRESS],
  ['Teredo, server 10.0.0.1', 'http://[2001:0:a00:1:8000:63bf:f7f7:f7f7]:PORT/secret', REFUSED_ADDRESS],
  ['link-local', 'http://[fe80::1]:PORT/secret', REFUSED_ADDRESS],
  ['unique-local fc00::/7', 'http://[fc00::1]:PORT/secret', REFUSED_ADDRESS],
  ['unique-local fd00::/8', 'http://[fd12:3456:789a::1]:PORT/secret', REFUSED_ADDRESS],
  ['site-local', 'http://[fec0::1]:PORT/secret', REFUSED_ADDRESS],
  ['multicast', 'http://[ff02::1]:PORT/secret', REFUSED_ADDRESS],
  ['documentation 2001:db8::/32', 'http://[2001:db8::1]:PORT/secret', REFUSED_ADDRESS],
  ['documentation 3fff::/20', 'http://[3fff::1]:PORT/secret', REFUSED_ADDRESS],
  ['benchmarking 2001:2::/48', 'http://[2001:2::1]:PORT/secret', REFUSED_ADDRESS],
  ['discard-only', 'http://[100::1]:PORT/secret', REFUSED_ADDRESS],
  ['outside global unicast', 'http://[4000::1]:PORT/secret', REFUSED_ADDRESS],
];

/** Names and what the test resolver answers for them. */
const names: Record<string, string[]> = {
  'public.test': ['93.184.215.14'],
  'loopback.test': ['127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'private.test': ['10.1.2.3'],
  'cgnat.test': ['100.100.1.1'],
  'v6-loopback.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'compatible.test': ['::7f00:1'],
  'nat64.test': ['64:ff9b::7f00:1'],
  'sixtofour.test': ['2002:7f00:1::'],
  'teredo.test': ['2001:0:4136:e378:8000:63bf:80ff:fffe'],
  'unique-local.test': ['fd00::5'],
  'mixed.test': ['93.184.215.14', '127.0.0.1'],
  'mixed-v6.test': ['2606:4700:4700::1111', '::1'],
};

const resolvedNames: Case[] = [
  ['a name resolving to loopback', 'http://loopback.test:PORT/secret', REFUSED_ADDRESS],
  ['the same name with a trailing dot', 'http://loopback.test.:PORT/secret', REFUSED_ADDRESS],
  ['the same name in upper case', 'http://LOOPBACK.TEST:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to the metadata address', 'http://metadata.test/latest/meta-data/', REFUSED_ADDRESS],
  ['a name resolving to a private address', 'http://private.test:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to CGNAT', 'http://cgnat.test:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to ::1', 'http://v6-loopback.test:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to IPv4-mapped loopback', 'http://mapped.test:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to IPv4-compatible loopback', 'http://compatible.test:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to NAT64 loopback', 'http://nat64.test:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to 6to4 loopback', 'http://sixtofour.test:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to Teredo loopback', 'http://teredo.test:PORT/secret', REFUSED_ADDRESS],
  ['a name resolving to unique-local', 'http://unique-local.test:PORT/secret', REFUSED_ADDRESS],
  ['a name with one public and one loopback answer', 'http://mixed.test:PORT/secret', REFUSED_ADDRESS],
  ['a name with one public and one ::1 answer', 'http://mixed-v6.test:PORT/secret', REFUSED_ADDRESS],
];

const schemes: Case[] = [
  ['file', 'file:///etc/passwd', HTTP_ONLY],
  ['ftp', 'ftp://127.0.0.1:PORT/secret', HTTP_ONLY],
  ['gopher', 'gopher://127.0.0.1:PORT/_GET%20/secret', HTTP_ONLY],
  ['data', 'data:text/plain,hola', HTTP_ONLY],
  ['ws', 'ws://127.0.0.1:PORT/secret', HTTP_ONLY],
];

/** Redirects from an allowed public host, each to a target that must be refused on that hop. */
const redirects: Array<[label: string, status: number, location: string, refusal: string]> = [
  ['301 to loopback', 301, 'http://127.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['302 to IPv4-mapped loopback', 302, 'http://[::ffff:7f00:1]:PORT/secret', REFUSED_ADDRESS],
  ['303 to localhost', 303, 'http://localhost:PORT/secret', REFUSED_ADDRESS],
  ['307 to a name resolving to loopback', 307, 'http://loopback.test:PORT/secret', REFUSED_ADDRESS],
  ['308 to decimal loopback', 308, 'http://2130706433:PORT/secret', REFUSED_ADDRESS],
  ['301 to the metadata address', 301, 'http://169.254.169.254/latest/meta-data/', REFUSED_ADDRESS],
  ['302 to 6to4 loopback', 302, 'http://[2002:7f00:1::]:PORT/secret', REFUSED_ADDRESS],
  ['307 to a protocol-relative loopback URL', 307, '//127.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['302 to userinfo loopback', 302, 'http://public.test@127.0.0.1:PORT/secret', REFUSED_ADDRESS],
  ['302 to file', 302, 'file:///etc/passwd', HTTP_ONLY],
  ['301 to a name with a loopback answer among public ones', 301, 'http://mixed.test:PORT/secret', REFUSED_ADDRESS],
];

/** Every address of this host's own interfaces, public or not. */
const ownAddresses: Case[] = Object.values(os.networkInterfaces())
  .flat()
  .filter((entry) => entry !== undefined)
  .map((entry) => [
    `own interface address ${entry.address}`,
    entry.family === 'IPv6' ? `http://[${entry.address}]:PORT/secret` : `http://${entry.address}:PORT/secret`,
    REFUSED_ADDRESS,
  ]);

let loopback: Awaited<ReturnType<typeof startFakeWebhookServer>>;
let publicHost: Awaited<ReturnType<typeof startFakeWebhookServer>>;
let port = '';
beforeAll(async () => {
  loopback = await startFakeWebhookServer();
  loopback.route('/secret', { body: "the server's own secret" });
  port = new URL(loopback.url).port;
  publicHost = await startFakeWebhookServer();
  redirects.forEach(([, status, location], index) =>
    publicHost.route(`/redirect-${index}`, { status, headers: { location: location.replace('PORT', port) }, body: '' }),
  );
  publicHost.route('/hop-1', { status: 302, headers: { location: '/hop-2' }, body: '' });
  publicHost.route('/hop-2', { status: 302, headers: { location: '/hop-3' }, body: '' });
  publicHost.route('/hop-3', { status: 302, headers: { location: '/hop-4' }, body: '' });
  publicHost.route('/hop-4', { status: 302, headers: { location: '/ok' }, body: '' });
  publicHost.route('/ok', { body: 'ok' });
});
afterAll(async () => {
  await loopback.close();
  await publicHost.close();
});

function client() {
  const network = testNetwork(Number(new URL(publicHost.url).port), names);
  return { http: createOutboundHttp({ lookup: network.lookup, connect: network.connect, timeoutMs: 3_000 }), network };
}

const allCases = [...literalIPv4, ...literalIPv6, ...resolvedNames, ...schemes, ...ownAddresses];

describe('the outbound client never reaches a non-public address', () => {
  it('has at least 60 cases', () => {
    expect(allCases.length + redirects.length).toBeGreaterThanOrEqual(60);
  });

  it.each(allCases)('refuses %s: %s', async (_label, url, refusal) => {
    const { http, network } = client();
    const reached = loopback.received.length;
    await expect(http({ url: url.replace('PORT', port) })).rejects.toThrow(refusal);
    expect(network.dialled).toEqual([]);
    expect(loopback.received.length).toBe(reached);
  });

  it.each(redirects.map((entry, index) => [...entry, index] as const))('refuses a redirect hop, %s', async (_label, _status, _location, refusal, index) => {
    const { http, network } = client();
    const before = publicHost.received.length;
    const reached = loopback.received.length;
    await expect(http({ url: `http://public.test/redirect-${index}` })).rejects.toThrow(refusal);
    // The public host answered the redirect; nothing went further.
    expect(publicHost.received.length).toBe(before + 1);
    expect(network.dialled).toEqual([{ address: '93.184.215.14', port: 80 }]);
    expect(loopback.received.length).toBe(reached);
  });

  it('follows three redirects, not a fourth', async () => {
    const { http } = client();
    await expect(http({ url: 'http://public.test/hop-1' })).rejects.toThrow(TOO_MANY_REDIRECTS);
    const answer = await http({ url: 'http://public.test/hop-2' });
    expect(answer).toMatchObject({ status: 200 });
    expect(answer.body.toString()).toBe('ok');
  });

  it("judges the IPv4 address inside IPv6 forms by the same rules, this host's addresses included", () => {
    const own = new Set(['8.8.4.4']);
    for (const form of [
      '8.8.4.4',
      '::ffff:8.8.4.4',
      '::ffff:808:404',
      '::808:404',
      '64:ff9b::808:404',
      '2002:808:404::',
      '2001:0:4136:e378:8000:63bf:f7f7:fbfb',
    ]) {
      expect(isNonPublicAddress(form, own), form).toBe(true);
      expect(isNonPublicAddress(form, new Set()), form).toBe(false);
    }
    expect(isNonPublicAddress('not an address', new Set())).toBe(true);
  });

  it('never reached the loopback listener, over all cases', () => {
    expect(loopback.received).toHaveLength(0);
  });
});
