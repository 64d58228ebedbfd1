import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** APP_SECRET, or one generated once into DATA_DIR and reused on every later start. */
export function resolveAppSecret(configured: string | undefined, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, 'app-secret');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
