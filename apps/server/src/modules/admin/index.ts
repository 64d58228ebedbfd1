/**
 * The admin module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). The platform operator: companies, users, prices, provider credentials
 * and template review. The top layer.
 */
export { adminPlugin } from './admin.plugin.ts';
export { bootstrapPlatformAdmin } from './admin-bootstrap.ts';
export { gupshupCredentials, resolveAdminSession } from './admin.service.ts';
