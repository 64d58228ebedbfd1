/**
 * The bots module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Bots Studio flows: the runtime, the simulator and live runs. Imports
 * agenda, chats, funnels, tenants and users.
 */
export { botsPlugin } from './bots.plugin.ts';
export { columnBotsOf } from './bots.service.ts';
