import { LineIcon } from '../../shared/ui/LineIcon.tsx';
import type { ChatMessage } from './chat.api.ts';
import { asRecord, textField } from './message-payload.ts';

export interface FlowReply {
  name?: string;
  fields: Array<{ label: string; value: string }>;
}

/** `payload.flowReply`: what the customer answered in a WhatsApp Flow, or null for any other message. */
export function flowReplyOf(message: ChatMessage): FlowReply | null {
  const reply = asRecord(message.payload?.flowReply);
  if (!reply) return null;
  const fields = Array.isArray(reply.fields)
    ? reply.fields.flatMap((value) => {
        const field = asRecord(value);
        return field && typeof field.label === 'string' ? [{ label: field.label, value: typeof field.value === 'string' ? field.value : '' }] : [];
      })
    : [];
  return { name: textField(reply, 'name'), fields };
}

/** A flow's answer (issue 43) as a small form: its name, then one label and value per row. */
export function FlowReplyBlock({ reply }: { reply: FlowReply }) {
  return (
    <div data-testid="message-flow-reply" className="min-w-48">
      <p className="mb-1 flex items-center gap-1 text-xs font-semibold text-slate-700">
        <LineIcon name="form" />
        Formulario{reply.name ? ` · ${reply.name}` : ''}
      </p>
      {reply.fields.length > 0 ? (
        <dl className="divide-y divide-slate-200 rounded-lg bg-black/5 px-2 text-xs">
          {reply.fields.map((field, index) => (
            <div key={`${field.label}-${index}`} className="flex justify-between gap-3 py-1">
              <dt className="font-medium text-slate-700">{field.label}</dt>
              <dd className="whitespace-pre-wrap break-words text-right text-slate-900">{field.value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-xs italic text-slate-600">Formulario enviado</p>
      )}
    </div>
  );
}
