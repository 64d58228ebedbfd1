import type { Role } from '@embudo/contracts/http/auth';
import type { TemplateDto } from '@embudo/contracts/http/templates';
import { installFakeApi, json } from '../../test/fake-api.ts';
import { aTenant, aUser, storeSession } from '../../test/session-fixture.ts';

export function aTemplate(overrides: Partial<TemplateDto> = {}): TemplateDto {
  return {
    id: 'tpl-1',
    name: 'aviso_pedido',
    category: 'UTILITY',
    language_code: 'es',
    header: null,
    body_text: 'Hola {{1}}, tu pedido está listo.',
    footer: null,
    buttons: [],
    status: 'APPROVED',
    rejection_reason: null,
    blocked_by_operator: false,
    provider_template_id: 'gs-1',
    variables_schema: { 1: { type: 'text', label: 'Variable 1' } },
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** A signed-in session of this role with the given template calls (paths under /t/acme/api). */
export function installTemplatesApi(handlers: Parameters<typeof installFakeApi>[0] = {}, role: Role = 'owner') {
  const user = aUser({ role });
  const tenant = aTenant();
  storeSession(user, tenant);
  return installFakeApi({ 'GET /api/auth/me': () => json(200, { user, tenant }), ...handlers });
}
