/**
 * The bulk-sends module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Bulk template sends from a spreadsheet, in chunks paced by the company's number
 * (send-pacing). Imports chats, funnels, send-pacing, templates and users.
 */
export { bulkSendsPlugin } from './bulk-sends.plugin.ts';
