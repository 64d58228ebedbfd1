import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { providerSettings, tenants } from '../../../db/schema/index.ts';
import { createTestDatabase } from '../../../test/support/test-database.ts';
import type { Database } from '../../platform/db/database.ts';
import { allSandboxApps, effectiveAccount, sandboxAppName, sandboxAppNamed } from './provider-settings.service.ts';

const PUBLIC_URL = 'http://127.0.0.1:3000';
const SECRET = 'test-app-secret-0123456789abcdef0123';

describe("the sandbox's app registry", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('reads one app by name exactly as the whole registry lists it: by the name the company saved, or the one the sandbox gives it', async () => {
    const [plain, named] = await database.db
      .insert(tenants)
      .values([
        { name: 'Sin nombre', slug: 'sin-nombre' },
        { name: 'Con nombre', slug: 'con-nombre' },
      ])
      .returning();
    await database.db.insert(providerSettings).values({ tenantId: named!.id, appName: 'MiAppGuardada', webhookSecret: 'secreto-guardado' });

    // Reading the app gives a company without settings its webhook secret, as the whole registry does.
    const first = await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, sandboxAppName(plain!));
    const [settings] = await database.db.select().from(providerSettings).where(eq(providerSettings.tenantId, plain!.id));
    expect(first?.callbackUrl).toContain(settings!.webhookSecret);

    const registry = await allSandboxApps(database.db, PUBLIC_URL, SECRET);
    for (const appName of [sandboxAppName(plain!), 'MiAppGuardada']) {
      expect(await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, appName)).toEqual(registry.find((app) => app.appName === appName));
    }
    // A company that saved its own name is not reached by the sandbox's name for it, nor is a name nobody has.
    expect(await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, sandboxAppName(named!))).toBeUndefined();
    expect(await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, 'nadie')).toBeUndefined();
  });

  it("names a new company's sandbox app with part of its id, not its slug alone, and keeps an older company's name", async () => {
    const [fresh, older] = await database.db
      .insert(tenants)
      .values([
        { name: 'Nueva', slug: 'nueva' },
        { name: 'Antigua', slug: 'antigua' },
      ])
      .returning();
    expect(sandboxAppName(fresh!)).toMatch(/^sandbox-nueva-[0-9a-f]{10}$/);
    expect((await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, sandboxAppName(fresh!)))?.label).toBe('Nueva');
    expect(await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, 'sandbox-nueva')).toBeUndefined();
    expect(await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, 'sandbox-nueva-0000000000')).toBeUndefined();
    // Saved before names were random (the migration kept sandbox-{slug}): the same app as before.
    await database.db.insert(providerSettings).values({ tenantId: older!.id, sandboxAppName: 'sandbox-antigua', webhookSecret: 'secreto-antiguo' });
    expect((await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, 'sandbox-antigua'))?.label).toBe('Antigua');
    expect(await sandboxAppNamed(database.db, PUBLIC_URL, SECRET, sandboxAppName(older!))).toBeUndefined();
    expect((await effectiveAccount(database.db, older!, true)).appName).toBe('sandbox-antigua');
  });
});
