/**
 * The templates module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). WhatsApp message templates, reviewed at the provider through the
 * provider port. Imports tenants.
 */
export { templatesPlugin } from './templates.plugin.ts';
export {
  ALREADY_APPROVED,
  ALREADY_REJECTED,
  applyProviderTemplateStatus,
  findApprovedTemplate,
  listAllTemplatesForOperator,
  listTemplates,
  type SandboxTemplateReviewer,
  setTemplateStatusByOperator,
  TEMPLATE_NOT_APPROVED,
  templateCounts,
  templateForSending,
  type TemplateRow,
} from './templates.service.ts';
