import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../src/platform/logger/logger.ts';
import { buildApp, type App, type AppOptions } from '../../src/app.ts';
import { createTestDatabase } from './test-database.ts';
import type { Database } from '../../src/platform/db/database.ts';

export const TEST_APP_SECRET = 'test-app-secret-0123456789abcdefghijklmnop';

export interface TestApp {
  app: App;
  database: Database & { url?: string };
  /** The app's media folder: one sub-folder per tenant. */
  mediaDir: string;
  close(): Promise<void>;
}

export async function buildTestApp(overrides: Partial<Omit<AppOptions, 'db' | 'logger' | 'mediaDir' | 'appSecret'>> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'embudo-media-'));
  const app = await buildApp({
    db: database.db,
    logger: createLogger(process.env.TEST_LOG ?? 'silent'),
    mediaDir,
    appSecret: TEST_APP_SECRET,
    exactResponses: true,
    // The webhook answers once what it brought is applied, so a test reads it right after (production answers once
    // the delivery is stored; test/http/webhook-intake.test.ts covers that).
    webhookAnswerWaitMs: 60_000,
    ...overrides,
  });
  await app.ready();
  return {
    app,
    database,
    mediaDir,
    close: async () => {
      await app.close();
      await database.close();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    },
  };
}
