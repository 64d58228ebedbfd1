import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import { createTestClock } from '../../../test/support/test-clock.ts';
import { createSecretBox } from '../../platform/crypto/secret-box.ts';
import type { Database } from '../../platform/db/database.ts';
import { createTenant, providerSettingsOf, recordNumberHealth, saveMetaSettings } from '../tenants/index.ts';
import { providerFailure } from '../../messaging-providers/provider.ts';
import { DEFAULT_PACING_TUNING, PROVIDER_DEFAULT_RATES, QUALITY_PACE, SendPacer, slowsTheNumber } from './send-pacer.ts';

let database: Database;
const clock = createTestClock();
let pacer: SendPacer;
let tenantCount = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  clock.freeze();
  pacer = new SendPacer({ db: database.db, clock: clock.now });
});
afterAll(async () => database.close());

/** A company on Gupshup (the default provider) unless `meta`, with its own bucket. */
async function company(options: { meta?: boolean } = {}) {
  tenantCount += 1;
  const tenant = await createTenant(database.db, { name: `Pacing ${tenantCount}`, slug: `pacing-${tenantCount}-${Date.now()}` });
  if (options.meta)
    await saveMetaSettings(database.db, createSecretBox('pacing-test-secret-0123456789abcdef'), tenant!, {
      phoneNumberId: `10${tenantCount}${Date.now()}`,
      wabaId: 'waba-1',
      accessToken: 'token',
      appSecret: 'secret',
    });
  return tenant!.id;
}

const { quietMs, sameBurstMs, recoverySteps, floorPerSecond } = DEFAULT_PACING_TUNING;

describe('the token bucket of a sending number', () => {
  it('starts full at the provider default, grants what it holds and says when the rest may go', async () => {
    const gupshup = await company();
    const meta = await company({ meta: true });
    expect(await pacer.take(gupshup, 50)).toEqual({ granted: PROVIDER_DEFAULT_RATES.gupshup, rate: 20, waitMs: 1_000 });
    expect(await pacer.take(meta, 50)).toEqual({ granted: 50, rate: PROVIDER_DEFAULT_RATES.meta, waitMs: 0 });
    expect(await pacer.take(meta, 50)).toEqual({ granted: 30, rate: 80, waitMs: 250 });
    // Nothing refills while time stands still.
    expect((await pacer.take(gupshup, 5)).granted).toBe(0);
  });

  it('refills at its rate for the time that passed, never beyond one full bucket', async () => {
    const tenant = await company({ meta: true });
    expect((await pacer.take(tenant, 80)).granted).toBe(80);
    clock.advance(250);
    expect(await pacer.take(tenant, 80)).toEqual({ granted: 20, rate: 80, waitMs: 750 });
    clock.advance(60_000);
    expect((await pacer.take(tenant, 500)).granted).toBe(80);
  });

  it('is shared by two processes on one database: together they never take more than the bucket holds', async () => {
    const tenant = await company({ meta: true });
    const other = new SendPacer({ db: database.db, clock: clock.now });
    const firstRound = await Promise.all([pacer.take(tenant, 60), other.take(tenant, 60)]);
    expect(firstRound.map((grant) => grant.granted).sort((a, b) => a - b)).toEqual([20, 60]);
    clock.advance(500);
    const secondRound = await Promise.all([other.take(tenant, 30), pacer.take(tenant, 30)]);
    expect(secondRound.reduce((sum, grant) => sum + grant.granted, 0)).toBe(40);
    // What one slows down, the other sees.
    await other.slowDown(tenant);
    expect((await pacer.rateOf(tenant)).currentMessagesPerSecond).toBe(40);
  });

  it('halves its rate on a rate-limit answer, once per burst of refusals, and not below the floor', async () => {
    const tenant = await company({ meta: true });
    await pacer.take(tenant, 1);
    expect(await pacer.slowDown(tenant)).toBe(40);
    // The other sends of the same burst were refused too: the rate halves once for them all.
    expect(await pacer.slowDown(tenant)).toBe(40);
    expect(await pacer.take(tenant, 10)).toMatchObject({ granted: 0, rate: 40 });
    clock.advance(sameBurstMs);
    expect(await pacer.slowDown(tenant)).toBe(20);
    for (let i = 0; i < 10; i++) {
      clock.advance(sameBurstMs);
      await pacer.slowDown(tenant);
    }
    expect(await pacer.rateOf(tenant)).toEqual({ messagesPerSecond: 80, isDefault: true, currentMessagesPerSecond: floorPerSecond });
  });

  it('climbs back one step per quiet period to the configured rate, and a new refusal starts the quiet period over', async () => {
    const tenant = await company({ meta: true });
    await pacer.slowDown(tenant);
    await pacer.slowDown(tenant);
    clock.advance(sameBurstMs);
    expect(await pacer.slowDown(tenant)).toBe(20);
    const step = 80 / recoverySteps;
    clock.advance(quietMs - 1);
    expect((await pacer.take(tenant, 1)).rate).toBe(20);
    clock.advance(1);
    expect((await pacer.take(tenant, 1)).rate).toBe(20 + step);
    // A refusal now: halved again, and the next step waits a whole quiet period from here.
    expect(await pacer.slowDown(tenant)).toBe((20 + step) / 2);
    clock.advance(quietMs - 1);
    expect((await pacer.rateOf(tenant)).currentMessagesPerSecond).toBe(14);
    clock.advance(1);
    expect((await pacer.rateOf(tenant)).currentMessagesPerSecond).toBe(14 + step);
    // Long quiet: back to the configured rate and no further.
    clock.advance(quietMs * 100);
    expect((await pacer.take(tenant, 1)).rate).toBe(80);
    expect(await pacer.rateOf(tenant)).toEqual({ messagesPerSecond: 80, isDefault: true, currentMessagesPerSecond: 80 });
  });

  it('runs at the operator’s rate from the moment it is set, slowed or not', async () => {
    const tenant = await company();
    await pacer.slowDown(tenant);
    expect(await pacer.setRate(tenant, 200)).toEqual({ messagesPerSecond: 200, isDefault: false, currentMessagesPerSecond: 200 });
    clock.advance(1_000);
    expect(await pacer.take(tenant, 500)).toEqual({ granted: 200, rate: 200, waitMs: 1_000 });
    await pacer.setRate(tenant, 5);
    clock.advance(10_000);
    expect(await pacer.take(tenant, 500)).toEqual({ granted: 5, rate: 5, waitMs: 1_000 });
    // A rate below the floor is never halved under itself… nor under the floor.
    await pacer.setRate(tenant, 0.5);
    expect(await pacer.slowDown(tenant)).toBe(0.5);
    expect((await pacer.take(tenant, 1)).granted).toBe(0);
    clock.advance(2_000);
    expect((await pacer.take(tenant, 1)).granted).toBe(1);
  });
});

describe("the number's quality", () => {
  const reported = (tenantId: string, quality: 'GREEN' | 'YELLOW' | 'RED' | 'UNKNOWN') =>
    recordNumberHealth(database.db, tenantId, { event: quality === 'GREEN' ? 'UNFLAGGED' : 'FLAGGED', quality, at: clock.now() });

  it('paces a medium number at half its rate and a low one at a quarter, showing the setting unchanged', async () => {
    const tenant = await company({ meta: true });
    await reported(tenant, 'YELLOW');
    expect(QUALITY_PACE).toEqual({ YELLOW: 0.5, RED: 0.25 });
    expect(await pacer.take(tenant, 100)).toEqual({ granted: 40, rate: 40, waitMs: 1_000 });
    clock.advance(1_000);
    await reported(tenant, 'RED');
    // A number flagged while sending slows at once: the bucket never runs above the quality's rate.
    expect(await pacer.take(tenant, 100)).toEqual({ granted: 20, rate: 20, waitMs: 1_000 });
    expect(await pacer.rateOf(tenant)).toEqual({ messagesPerSecond: 80, isDefault: true, currentMessagesPerSecond: 20 });
    // Rate-limit answers halve from there, as from any rate.
    expect(await pacer.slowDown(tenant)).toBe(10);
  });

  it('climbs back one quiet period at a time once the quality recovers', async () => {
    const tenant = await company({ meta: true });
    await reported(tenant, 'RED');
    expect((await pacer.take(tenant, 1)).rate).toBe(20);
    clock.advance(1);
    await reported(tenant, 'GREEN');
    expect((await pacer.take(tenant, 1)).rate).toBe(20);
    clock.advance(quietMs);
    expect((await pacer.rateOf(tenant)).currentMessagesPerSecond).toBe(20 + 80 / recoverySteps);
    clock.advance(quietMs * 100);
    expect((await pacer.take(tenant, 1)).rate).toBe(80);
  });

  it('keeps the full rate for a high or unknown quality, or none reported, and scales the operator’s rate too', async () => {
    const unknown = await company();
    await providerSettingsOf(database.db, unknown);
    await reported(unknown, 'UNKNOWN');
    expect((await pacer.take(unknown, 1)).rate).toBe(PROVIDER_DEFAULT_RATES.gupshup);
    const green = await company({ meta: true });
    await reported(green, 'GREEN');
    expect((await pacer.take(green, 1)).rate).toBe(80);
    expect((await pacer.take(await company(), 1)).rate).toBe(20);
    const operated = await company({ meta: true });
    await reported(operated, 'YELLOW');
    expect(await pacer.setRate(operated, 200)).toEqual({ messagesPerSecond: 200, isDefault: false, currentMessagesPerSecond: 100 });
    expect((await pacer.take(operated, 1)).rate).toBe(100);
  });
});

describe('which refusals slow the number', () => {
  it("Meta's throughput limit and Gupshup's 429 do; a pair rate limit (one customer written to too fast) and other refusals do not", () => {
    expect(slowsTheNumber(providerFailure('rate_limited', 130429))).toBe(true);
    expect(slowsTheNumber(providerFailure('rate_limited', 429))).toBe(true);
    expect(slowsTheNumber(providerFailure('rate_limited', 4001))).toBe(true);
    expect(slowsTheNumber(providerFailure('rate_limited', 131056))).toBe(false);
    expect(slowsTheNumber(providerFailure('not_on_whatsapp', 131026))).toBe(false);
  });
});
