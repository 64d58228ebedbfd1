import { describe, expect, it } from 'vitest';
import { FAILURE_REASONS, providerFailure, type KnownFailure } from './provider.ts';
import { META_ERRORS, metaFailure } from './meta-cloud/meta-errors.ts';
import { GUPSHUP_ERRORS, GUPSHUP_SEND_ERRORS, gupshupFailure, gupshupSendFailure } from './gupshup/gupshup-errors.ts';

// Issue 43, item 7: no English provider text reaches a chat or a batch row for any code in the published lists.

/** Spanish by its letters or its little words; English titles have neither. */
const SPANISH = /[áéíóúñ¿¡]|\b(el|la|de|los|las|que|no|un|una)\b/i;
/** Names of products and places in the providers' dashboards, and the English words Spanish uses as they are. */
const NAMES = new Set(['whatsapp', 'meta', 'gupshup', 'business', 'manager', 'cloud', 'flow', 'token', 'marketing']);

/** The title's words a reason must not carry (short words and names aside). */
const englishWords = (title: string) =>
  title
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word) => word.length >= 4 && !NAMES.has(word));

function expectActionableSpanish(entry: KnownFailure, what: string) {
  expect(entry.reason, what).not.toBe('');
  expect(entry.reason.length, what).toBeLessThanOrEqual(200);
  expect(entry.reason, what).toMatch(SPANISH);
  expect(entry.reason.toLowerCase(), what).not.toContain(entry.title.toLowerCase());
  for (const word of englishWords(entry.title))
    expect(entry.reason.toLowerCase(), `${what}: "${word}"`).not.toMatch(new RegExp(`(?<!\\p{L})${word}(?!\\p{L})`, 'u'));
  // What happened, then what to do.
  expect(entry.reason, what).toContain(':');
}

const metaCodes = Object.keys(META_ERRORS).map(Number);
const gupshupCodes = Object.keys(GUPSHUP_ERRORS).map(Number);

describe("every code of Meta's and Gupshup's published lists has its own reason, in Spanish", () => {
  it('covers the codes of the lists', () => {
    // Authorization, integrity, throttling and the others of Meta's page; Gupshup's page.
    for (const code of [0, 3, 10, 190, 200, 368, 130497, 131031, 4, 80007, 130429, 131048, 131056, 131064, 133016]) expect(metaCodes).toContain(code);
    for (const code of [1, 2, 33, 100, 130403, 130472, 131000, 131005, 131008, 131009, 131016, 131021, 131026, 131037, 131042, 131045])
      expect(metaCodes).toContain(code);
    for (const code of [131047, 131049, 131050, 131051, 131052, 131053, 131055, 131057, 131063, 132000, 132001, 132005, 132007, 132012, 132015])
      expect(metaCodes).toContain(code);
    for (const code of [132016, 132018, 132068, 132069, 133000, 133004, 133005, 133006, 133008, 133009, 133010, 133015, 134011, 134100, 135000])
      expect(metaCodes).toContain(code);
    expect(gupshupCodes.sort((a, b) => a - b)).toEqual([500, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1010, 1011, 1012, 4001, 4002, 4003, 4004, 4005]);
    expect(Object.keys(GUPSHUP_SEND_ERRORS)).toEqual(
      expect.arrayContaining(['Authentication Failed', 'Invalid App Details', 'Invalid Destination', 'Too Many Requests', 'Internal Server Error']),
    );
  });

  it.each(metaCodes)("Meta's %s: an actionable Spanish reason, whatever Meta's details say", (code) => {
    const entry = META_ERRORS[code]!;
    expectActionableSpanish(entry, `${code} ${entry.title}`);
    expect(metaFailure(code)).toEqual({ code: String(code), kind: entry.kind, reason: entry.reason });
    // Gupshup passes WhatsApp's 13xxxx codes through in its failed events: the same reason.
    if (code >= 100_000) expect(gupshupFailure(String(code))).toEqual(metaFailure(code));
  });

  it.each(gupshupCodes)("Gupshup's %s: an actionable Spanish reason, whatever Gupshup's reason says", (code) => {
    const entry = GUPSHUP_ERRORS[code]!;
    expectActionableSpanish(entry, `${code} ${entry.title}`);
    expect(gupshupFailure(code)).toEqual({ code: String(code), kind: entry.kind, reason: entry.reason });
    expect(gupshupFailure(String(code))).toEqual({ code: String(code), kind: entry.kind, reason: entry.reason });
  });

  it.each(Object.entries(GUPSHUP_SEND_ERRORS))(
    "Gupshup's answer to a send %j: an actionable Spanish reason, with the HTTP status as its code",
    (message, entry) => {
      expectActionableSpanish(entry, message);
      expect(gupshupSendFailure(entry.status, message)).toEqual({ code: String(entry.status), kind: entry.kind, reason: entry.reason });
      expect(gupshupSendFailure(entry.status, message.toUpperCase()).reason).toBe(entry.reason);
    },
  );

  it('gives the whole 200–299 permission range the reason of its entry', () => {
    for (const code of [201, 250, 299]) expect(metaFailure(code)).toEqual({ code: String(code), kind: 'unauthorized', reason: META_ERRORS[200]!.reason });
  });

  it('gives a code no list has a Spanish reason naming it, and one without a code a reason all the same', () => {
    expect(metaFailure(131999)).toEqual({
      code: '131999',
      kind: 'other',
      reason: 'WhatsApp rechazó el mensaje (código 131999): vuelve a intentarlo y, si se repite, avisa a soporte',
    });
    // A template code Meta adds later is still about the template.
    expect(metaFailure(132099)).toEqual({ code: '132099', kind: 'template_mismatch', reason: FAILURE_REASONS.template_mismatch });
    expect(gupshupFailure(9999)).toEqual({
      code: '9999',
      kind: 'other',
      reason: 'Gupshup rechazó el mensaje (código 9999): vuelve a intentarlo y, si se repite, avisa a soporte',
    });
    expect(gupshupSendFailure(400, 'Something new')).toEqual({
      code: '400',
      kind: 'other',
      reason: 'Gupshup rechazó el mensaje (código 400): vuelve a intentarlo y, si se repite, avisa a soporte',
    });
    expect(metaFailure(undefined)).toEqual({ code: null, kind: 'other', reason: FAILURE_REASONS.other });
    expect(gupshupFailure(undefined)).toEqual({ code: null, kind: 'other', reason: FAILURE_REASONS.other });
    expect(providerFailure('other', 'not a code!')).toEqual({ code: null, kind: 'other', reason: FAILURE_REASONS.other });
  });

  it("reads an unlisted send answer by its HTTP status: a rate limit, the key, Gupshup's own failure", () => {
    expect(gupshupSendFailure(429, 'Slow down')).toMatchObject({ code: '429', kind: 'rate_limited' });
    expect(gupshupSendFailure(401, undefined)).toMatchObject({
      code: '401',
      kind: 'unauthorized',
      reason: GUPSHUP_SEND_ERRORS['Authentication Failed']!.reason,
    });
    expect(gupshupSendFailure(403, 'Forbidden')).toMatchObject({ code: '403', kind: 'unauthorized' });
    expect(gupshupSendFailure(502, undefined)).toEqual({ code: '502', kind: 'provider_error', reason: GUPSHUP_ERRORS[500]!.reason });
  });

  it('has a Spanish reason for every kind', () => {
    for (const [kind, reason] of Object.entries(FAILURE_REASONS)) {
      expect(reason, kind).toMatch(SPANISH);
      expect(reason.length, kind).toBeLessThanOrEqual(200);
    }
  });
});
