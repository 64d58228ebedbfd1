/**
 * The bulk-sends module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Bulk template sends from a spreadsheet, in paced chunks. Imports chats,
 * funnels, templates and users.
 */
export { bulkSendsPlugin } from './bulk-sends.plugin.ts';
export { type BulkSendPace, DEFAULT_BULK_SEND_PACE } from './bulk-sends.service.ts';
