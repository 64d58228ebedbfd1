import type { TemplateDto } from '@embudo/contracts/http/templates';
import type { TestApp } from './build-test-app.ts';
import { bearer, type registerTenant } from './factories.ts';

type Owner = Awaited<ReturnType<typeof registerTenant>>;

/** Polls until the probe answers something, or fails after the deadline (no fixed sleeps). */
export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Syncs until the template leaves PENDING, as a person pressing Sincronizar con Meta would. */
export function syncUntilReviewed(t: TestApp, owner: Owner, id: string): Promise<TemplateDto> {
  return until(async () => {
    const response = await t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/templates/sync`, headers: bearer(owner.token) });
    if (response.statusCode !== 200) throw new Error(`sync failed: ${response.statusCode} ${response.body}`);
    const found = (response.json().templates as TemplateDto[]).find((entry) => entry.id === id);
    return found && found.status !== 'PENDING' ? found : undefined;
  });
}

/** Creates a template through the API and syncs until the (sandbox) review approved it. */
export async function approvedTemplate(t: TestApp, owner: Owner, input: Record<string, unknown>): Promise<TemplateDto> {
  const created = await t.app.inject({ method: 'POST', url: `/t/${owner.tenant.slug}/api/templates`, headers: bearer(owner.token), payload: input });
  if (created.statusCode !== 201) throw new Error(`template not created: ${created.statusCode} ${created.body}`);
  const reviewed = await syncUntilReviewed(t, owner, created.json().id);
  if (reviewed.status !== 'APPROVED') throw new Error(`template ended ${reviewed.status}`);
  return reviewed;
}

/** A multipart body with one file field, as a browser's FormData sends it. */
export function multipartFile(field: string, fileName: string, data: Buffer) {
  const boundary = `----embudo${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A 1×1 PNG: the smallest real image a header sample can be. */
export const PNG_PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
