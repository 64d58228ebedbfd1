/**
 * The tenants module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Companies: their rows, plan limits and WhatsApp connection settings.
 * The bottom layer: imports no module.
 */
export { memberLimitMessage, requireMemberSeat, requirePlanFeature } from './plan-limits.ts';
export {
  allSandboxApps,
  effectiveAccount,
  providerSettingsOf,
  sandboxApiKey,
  sandboxAppName,
  updateProviderSettings,
  webhookUrlOf,
} from './provider-settings.service.ts';
export {
  countTenants,
  createTenant,
  findTenantById,
  findTenantBySlug,
  isSlugAvailable,
  listTenantsNewestFirst,
  setTenantPlan,
  type TenantRow,
  toSessionTenant,
  updateTenantTimezone,
} from './tenants.service.ts';
