import { next, type NodeExecutor } from '../node-executor.ts';

export const WEBHOOK_STATUS_VARIABLE = 'webhook_status';
export const WEBHOOK_RESPONSE_VARIABLE = 'webhook_response';
/** A stored answer longer than this is cut: variables end up in messages. */
const MAX_STORED_RESPONSE = 4000;

/**
 * Calls the URL (through the outbound guard) with the interpolated body; the answer is kept in
 * webhook_status and webhook_response, and a JSON object's top-level fields in webhook.<field>.
 */
export const webhook: NodeExecutor<'webhook'> = {
  async run(data, ctx) {
    const url = ctx.interpolate(data.url).trim();
    if (!url) {
      ctx.report(`[«${data.label}» no tiene URL: no se llamó]`);
      return next();
    }
    const body = data.method === 'POST' ? ctx.interpolate(data.body || '{}') : undefined;
    try {
      const response = await ctx.services.http({ url, method: data.method, body, headers: body === undefined ? {} : { 'content-type': 'application/json' } });
      const text = response.body.toString('utf8');
      ctx.variables[WEBHOOK_STATUS_VARIABLE] = String(response.status);
      ctx.variables[WEBHOOK_RESPONSE_VARIABLE] = text.slice(0, MAX_STORED_RESPONSE);
      try {
        const json: unknown = JSON.parse(text);
        if (json && typeof json === 'object' && !Array.isArray(json)) {
          for (const [key, value] of Object.entries(json)) {
            ctx.variables[`webhook.${key}`] = (typeof value === 'string' ? value : JSON.stringify(value)).slice(0, MAX_STORED_RESPONSE);
          }
        }
      } catch {
        // Not JSON: webhook_response holds the text as it came.
      }
      ctx.report(`[Webhook ${data.method} ${url} → ${response.status}]`);
    } catch (error) {
      ctx.variables[WEBHOOK_STATUS_VARIABLE] = 'error';
      ctx.report(`[Webhook ${data.method} ${url} falló: ${error instanceof Error ? error.message : String(error)}]`);
    }
    return next();
  },
};
