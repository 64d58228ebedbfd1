/**
 * The tenants module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Companies: their rows, plan limits and WhatsApp connection settings.
 * The bottom layer: imports no module.
 */
export { memberLimitMessage, requireMemberSeat, requirePlanFeature } from './plan-limits.ts';
export {
  activeConnectionOf,
  allSandboxApps,
  sandboxAppNamed,
  allSandboxMetaNumbers,
  assertGupshupAppFree,
  assertMetaNumberFree,
  type ConnectionOptions,
  effectiveAccount,
  META_APP_SECRET_REQUIRED,
  META_NUMBER_TAKEN,
  META_TOKEN_REQUIRED,
  metaAccountFrom,
  type MetaSettingsInput,
  type NumberHealthUpdate,
  numberHealthOf,
  optOutKeywordsOf,
  providerSettingsOf,
  type ProviderSettingsRow,
  recordNumberHealth,
  sandboxApiKey,
  sandboxAppName,
  saveGupshupSettings,
  saveMetaSettings,
  saveOptOutKeywords,
  savedAccount,
  savedAccountById,
  updateProviderSettings,
  webhookAccount,
  webhookUrlOf,
  whatsappSettingsView,
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
