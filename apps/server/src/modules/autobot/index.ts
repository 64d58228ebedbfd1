/**
 * The autobot module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). The menu auto-bot of the waiting room. Imports chats, funnels and
 * tenants.
 */
export { autobotPlugin, waitingRoomArchive } from './autobot.plugin.ts';
export { greetOnNextMessage, landingColumn, saveBotSettings } from './autobot.service.ts';
