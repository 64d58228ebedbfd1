import { fileTools, type GeminiConfig } from '@embudo/contracts/http/funnels';
import type { DbExecutor } from '../../../platform/db/database.ts';
import { type MessageRow, recentMessages } from '../../chats/index.ts';
import type { KnowledgeSearch } from '../knowledge/knowledge-search.ts';
import type { AiTurn } from '../model/model-port.ts';

/** Issue 15: the assistant reads the last 20 messages of the chat. */
export const CONTEXT_MESSAGES = 20;
/**
 * The knowledge excerpts one answer may carry: about 3,000 tokens, a small share of any current model's context and
 * of an answer's cost, and room for the passages a question about several things needs. A larger budget also lets
 * more companies' files go whole into the context (docs/decisions/0030).
 */
export const KNOWLEDGE_BUDGET_CHARS = 12_000;
/** The customer's last messages that choose the knowledge excerpts. */
const QUERY_MESSAGES = 3;

const MEDIA_LABELS: Record<string, string> = {
  image: '[imagen]',
  video: '[video]',
  audio: '[nota de voz]',
  sticker: '[sticker]',
  document: '[documento]',
  location: '[ubicación]',
};

/** What a message says, in words the model can read: its text, a voice note's transcript, or what kind of media it is. */
export function messageWords(row: Pick<MessageRow, 'type' | 'text' | 'transcript' | 'mediaFileName'>): string {
  if (row.type === 'audio' && row.transcript) return row.transcript;
  const label = MEDIA_LABELS[row.type];
  const text = row.text?.trim() ?? '';
  if (!label) return text;
  const name = row.type === 'document' && row.mediaFileName ? ` ${row.mediaFileName}` : '';
  return text ? `${label}${name} ${text}` : `${label}${name}`;
}

export interface ConversationContext {
  instructions: string;
  turns: AiTurn[];
}

export interface ContextInput {
  tenantId: string;
  cardId: string;
  company: { name: string; timeZone: string };
  assistant: GeminiConfig;
  now: Date;
  knowledge: KnowledgeSearch;
}

/**
 * The model's view of a chat (docs/decisions/0013): the column's prompt, who and when the company is, the relevant
 * passages of the column's knowledge files, and the last messages as customer and business turns (notes stay out).
 */
export async function conversationContext(db: DbExecutor & Parameters<KnowledgeSearch>[0], input: ContextInput): Promise<ConversationContext> {
  const rows = await recentMessages(db, input.tenantId, input.cardId, CONTEXT_MESSAGES);
  const turns: AiTurn[] = rows
    .map((row) => ({ role: row.sender === 'contact' ? ('customer' as const) : ('business' as const), text: messageWords(row) }))
    .filter((turn) => turn.text !== '');
  const query = turns
    .filter((turn) => turn.role === 'customer')
    .slice(-QUERY_MESSAGES)
    .map((turn) => turn.text)
    .join(' ');
  const filePaths = fileTools(input.assistant.tools).map((tool) => tool.filePath);
  const excerpts =
    filePaths.length > 0 && query ? await input.knowledge(db, { tenantId: input.tenantId, filePaths, query, maxChars: KNOWLEDGE_BUDGET_CHARS }) : [];
  return { instructions: assistantInstructions(input, excerpts), turns };
}

export function assistantInstructions(input: Pick<ContextInput, 'assistant' | 'company' | 'now'>, excerpts: { fileName: string; text: string }[]) {
  const { name, timeZone } = input.company;
  const localNow = new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }).format(input.now).replace(' ', 'T');
  const parts = [
    input.assistant.systemPrompt.trim(),
    `Empresa: ${name}. Zona horaria: ${timeZone}. Fecha y hora actual: ${localNow}.\nResponde en español, breve, como parte del equipo de ${name}.`,
  ];
  if (excerpts.length > 0) {
    const purposes = new Map(fileTools(input.assistant.tools).map((tool) => [tool.fileName, tool.purpose]));
    parts.push(
      [
        '# Conocimiento',
        ...excerpts.map((excerpt) => {
          const purpose = purposes.get(excerpt.fileName);
          return `## ${excerpt.fileName}${purpose ? ` (${purpose})` : ''}\n${excerpt.text}`;
        }),
      ].join('\n'),
    );
  }
  return parts.filter(Boolean).join('\n\n');
}
