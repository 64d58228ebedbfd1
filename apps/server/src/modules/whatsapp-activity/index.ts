/**
 * The WhatsApp activity module's public face (docs/decisions/0012-module-boundaries.md): the company's and the
 * operator's view of webhook deliveries, refusals, failed sends and failed jobs. Imports chats and tenants.
 */
export { whatsappActivityPlugin } from './whatsapp-activity.plugin.ts';
