import type { AiTool as FlowToolConfig } from '@embudo/contracts/flows/nodes/aiPrompt';
import { AppError } from '../../../platform/errors/app-error.ts';
import type { OutboundHttp } from '../../../platform/outbound-http/outbound-http.guard.ts';
import type { AiTool, ToolParameters } from '../model/model-port.ts';

/** A webhook's answer as the model reads it: the status and at most this many characters of the body (the outbound guard caps time at 10 s). */
export const WEBHOOK_RESPONSE_CHARS = 2_000;

/** What a bot run offers the aiPrompt node's tools; a playground run only says what a live chat would do. */
export interface FlowToolServices {
  mode: 'simulation' | 'live';
  http: OutboundHttp;
  /** Live: moves the card there after the step. Playground: only looks it up. Answers the column's title, or undefined. */
  redirectToColumn(columnId: string): Promise<string | undefined>;
  /** The columns a redirect without a fixed column may choose from, by title. */
  columnChoices(): Promise<Array<{ id: string; title: string }>>;
  /** Live: schedules the text for this chat (throws an AppError saying why not). Playground: not called. */
  scheduleMessage(text: string, sendAt: Date): Promise<void>;
  /** A note shown in the Playground (and logged in a live run), in execution order. */
  report(text: string): void;
}

/** Gemini's and OpenAI's function names: letters, digits, underscores, up to 64 characters. */
function functionNames(tools: readonly FlowToolConfig[]): string[] {
  const counts = new Map<string, number>();
  for (const tool of tools) counts.set(tool.tool_type, (counts.get(tool.tool_type) ?? 0) + 1);
  const seen = new Map<string, number>();
  return tools.map((tool) => {
    const index = (seen.get(tool.tool_type) ?? 0) + 1;
    seen.set(tool.tool_type, index);
    return counts.get(tool.tool_type)! > 1 ? `${tool.tool_type}_${index}` : tool.tool_type;
  });
}

const labelOf = (tool: FlowToolConfig, fallback: string) => tool.label.trim() || fallback;

/**
 * The aiPrompt node's tools (spec 02 §9: webhook GET/POST, redirect_to_column, schedule_message) as model tools, so
 * the node runs the same tool loop as the column assistant. A description starts with the tool's label in «», which
 * the sandbox model matches against the customer's words. Each call leaves a note, in the order the calls ran.
 */
export async function flowTools(configs: readonly FlowToolConfig[], services: FlowToolServices): Promise<AiTool[]> {
  const names = functionNames(configs);
  const choosesColumn = configs.some((config) => config.tool_type === 'redirect_to_column' && !config.columnId?.trim());
  const columns = choosesColumn ? await services.columnChoices() : [];
  return configs.map((config, index) => {
    const name = names[index]!;
    switch (config.tool_type) {
      case 'webhook':
        return webhookTool(name, { label: config.label, method: config.type, url: config.url }, services);
      case 'redirect_to_column':
        return redirectTool(name, config, services, columns);
      case 'schedule_message':
        return scheduleTool(name, config, services);
    }
  });
}

/** A company service the model may call: GET, or POST with the JSON object the model writes in `datos`. */
export interface WebhookToolConfig {
  label: string;
  method: 'GET' | 'POST';
  url: string;
  purpose?: string;
}

/**
 * A webhook as a model tool, for the aiPrompt node and the column assistant alike: through the outbound guard (public
 * addresses only, 10 s, 5 MB), its answer trimmed for the model; every call reported.
 */
export function webhookTool(name: string, config: WebhookToolConfig, services: Pick<FlowToolServices, 'http' | 'report'>): AiTool {
  const label = config.label.trim() || 'Webhook';
  const parameters: ToolParameters =
    config.method === 'POST'
      ? { type: 'object', properties: { datos: { type: 'string', description: 'Objeto JSON que se envía como cuerpo (opcional)' } } }
      : { type: 'object', properties: {} };
  const purpose = config.purpose?.trim() ? ` ${config.purpose.trim()}` : '';
  return {
    name,
    description: `«${label}»: consulta un servicio externo de la empresa (${config.method}) y devuelve su respuesta.${purpose}`,
    parameters,
    async execute(args) {
      const url = config.url.trim();
      if (!url) {
        services.report(`[🔧 IA: «${label}» no tiene URL: no se llamó]`);
        return { error: `«${label}» no tiene URL configurada.` };
      }
      let body: string | undefined;
      if (config.method === 'POST') {
        const raw = typeof args['datos'] === 'string' && args['datos'].trim() ? args['datos'] : '{}';
        try {
          const parsed: unknown = JSON.parse(raw);
          body = JSON.stringify(parsed && typeof parsed === 'object' ? parsed : { datos: parsed });
        } catch {
          body = JSON.stringify({ datos: raw });
        }
      }
      try {
        const response = await services.http({
          url,
          method: config.method,
          body,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
        });
        const text = response.body.toString('utf8');
        services.report(`[🔧 IA: «${label}» ${config.method} ${url} → ${response.status}]`);
        // An error page may carry the service's internals (a stack trace, an address): it is a failure, not an answer.
        if (response.status >= 400) return { error: `«${label}» (${config.method} ${url}) respondió ${response.status}: ${text.slice(0, 300)}` };
        return { status: response.status, body: text.slice(0, WEBHOOK_RESPONSE_CHARS), ...(text.length > WEBHOOK_RESPONSE_CHARS ? { recortado: true } : {}) };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        services.report(`[🔧 IA: «${label}» ${config.method} ${url} falló: ${reason}]`);
        return { error: `«${label}» (${config.method} ${url}): ${reason}` };
      }
    },
  };
}

function redirectTool(
  name: string,
  config: Extract<FlowToolConfig, { tool_type: 'redirect_to_column' }>,
  services: FlowToolServices,
  columns: Array<{ id: string; title: string }>,
): AiTool {
  const label = labelOf(config, 'Mover de columna');
  const fixed = config.columnId?.trim();
  const moved = (title: string) => {
    services.report(
      services.mode === 'simulation' ? `[🔧 IA: «${label}» → el chat se movería a «${title}»]` : `[🔧 IA: «${label}» → chat movido a «${title}»]`,
    );
    return { ok: true, column: title };
  };
  if (fixed) {
    return {
      name,
      description: `«${label}»: pasa este chat a la etapa que corresponde.`,
      parameters: { type: 'object', properties: {} },
      async execute() {
        const title = await services.redirectToColumn(fixed);
        if (!title) {
          services.report(`[🔧 IA: «${label}»: la columna de destino no existe; el chat no se movió]`);
          return { error: 'La columna de destino no existe.' };
        }
        return moved(title);
      },
    };
  }
  return {
    name,
    description: `«${label}»: pasa este chat a otra columna del embudo, por su nombre.`,
    parameters: {
      type: 'object',
      properties: { column: { type: 'string', description: 'Nombre de la columna de destino', enum: [...new Set(columns.map((column) => column.title))] } },
      required: ['column'],
    },
    async execute(args) {
      const wanted = typeof args['column'] === 'string' ? args['column'].trim().toLowerCase() : '';
      const target = columns.find((column) => column.title.trim().toLowerCase() === wanted);
      if (!target) return { error: `No existe la columna "${String(args['column'] ?? '')}". Columnas: ${columns.map((column) => column.title).join(', ')}.` };
      const title = await services.redirectToColumn(target.id);
      return title ? moved(title) : { error: 'La columna de destino no existe.' };
    },
  };
}

function scheduleTool(name: string, config: FlowToolConfig, services: FlowToolServices): AiTool {
  const label = labelOf(config, 'Programar mensaje');
  return {
    name,
    description: `«${label}»: programa un mensaje de WhatsApp para este cliente (por ejemplo, un recordatorio) en una fecha y hora.`,
    parameters: {
      type: 'object',
      properties: {
        text: { type: 'string', description: 'El mensaje' },
        sendAt: { type: 'string', description: 'Fecha y hora ISO-8601 con zona horaria, en el futuro' },
      },
      required: ['text', 'sendAt'],
    },
    async execute(args) {
      const text = typeof args['text'] === 'string' ? args['text'].trim() : '';
      const sendAt = new Date(typeof args['sendAt'] === 'string' ? args['sendAt'] : '');
      if (!text) return { error: 'Falta el texto del mensaje.' };
      if (Number.isNaN(sendAt.getTime())) return { error: 'sendAt debe ser una fecha ISO-8601.' };
      if (services.mode === 'simulation') {
        services.report(`[🔧 IA: «${label}» → se programaría «${text}» para ${sendAt.toISOString()}]`);
        return { ok: true, sendAt: sendAt.toISOString() };
      }
      try {
        await services.scheduleMessage(text, sendAt);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        services.report(`[🔧 IA: «${label}» no programó el mensaje: ${error.message}]`);
        return { error: error.message };
      }
      services.report(`[🔧 IA: «${label}» → mensaje programado para ${sendAt.toISOString()}]`);
      return { ok: true, sendAt: sendAt.toISOString() };
    },
  };
}
