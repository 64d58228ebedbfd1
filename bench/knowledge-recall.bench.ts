/**
 * The column assistant's knowledge retrieval on the evaluation set (issue 44 item 3, bench/knowledge-eval): the set's
 * documents indexed as an upload indexes them, in one company's column, on a fresh database (PGlite, or PostgreSQL
 * with DATABASE_URL); every question searched as the assistant searches, within its knowledge budget. Prints the
 * recall (share of questions whose fact is in the excerpts) of the lexical half, the vector half and the hybrid search
 * with the sandbox model's embeddings, and, when a real model is configured (GEMINI_API_KEY, or AI_PROVIDER=openai
 * with its settings), with its embeddings and the share of its answers that hold the expected fact.
 */
import { randomUUID } from 'node:crypto';
import { tenants } from '../apps/server/db/schema/index.ts';
import { type AiModel, assistantInstructions, createAiModel, createSandboxAiModel, fold, KNOWLEDGE_BUDGET_CHARS } from '../apps/server/src/modules/ai/index.ts';
import { loadConfig } from '../apps/server/src/platform/config/config.ts';
import { createTestDatabase } from '../apps/server/test/support/test-database.ts';
import { assistantSearch, indexEvalSet, type IndexedEvalSet, recallOf } from '../apps/server/test/knowledge-eval/recall-evaluation.ts';
import { databaseLabel, ResultTable } from './support.ts';

const database = await createTestDatabase();
const table = new ResultTable('knowledge-recall', databaseLabel());
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

async function companyWith(model: AiModel | null): Promise<IndexedEvalSet> {
  const [tenant] = await database.db
    .insert(tenants)
    .values({ name: 'Rodada', slug: `rodada-${randomUUID().slice(0, 8)}` })
    .returning();
  return indexEvalSet(database.db, tenant!.id, model);
}

async function recallRows(label: string, model: AiModel) {
  const set = await companyWith(model);
  const search = assistantSearch(model);
  for (const strategy of ['lexical', 'vector', 'hybrid'] as const) {
    const figures = await recallOf(database.db, set, search, strategy);
    table.add(
      `recall within ${KNOWLEDGE_BUDGET_CHARS.toLocaleString('en-US')} chars, ${strategy}, ${label}`,
      `${percent(figures.recall)} (${figures.hits}/${figures.total})`,
    );
    if (strategy === 'hybrid') {
      table.add(`  by kind (hybrid, ${label})`, [...figures.byKind].map(([kind, { hits, total }]) => `${kind} ${hits}/${total}`).join(', '));
    }
  }
  return set;
}

/** The model's answer to each question with the hybrid search's excerpts, as the assistant asks it (no tools). */
async function answerQuality(model: AiModel, set: IndexedEvalSet) {
  const search = assistantSearch(model);
  const assistant = {
    isEnabled: true,
    systemPrompt: 'Eres el asistente de Rodada. Responde solo con la información que tienes.',
    tools: [],
    quietSeconds: 0,
    pauseOnHumanReply: true,
    fallbackReply: '',
  };
  let holding = 0;
  let failed = 0;
  for (const question of set.questions) {
    const excerpts = await search(database.db, {
      tenantId: set.tenantId,
      filePaths: set.filePaths,
      query: question.question,
      maxChars: KNOWLEDGE_BUDGET_CHARS,
    });
    const instructions = assistantInstructions({ assistant, company: { name: 'Rodada', timeZone: 'America/Mexico_City' }, now: new Date() }, excerpts);
    try {
      const answer = await model.answer({ instructions, turns: [{ role: 'customer', text: question.question }], tools: [] });
      if (fold(answer.text).replace(/\s+/g, ' ').includes(fold(question.expect))) holding++;
    } catch {
      failed++;
    }
  }
  const total = set.questions.length;
  table.add(
    `answers holding the expected fact, ${model.label}`,
    `${percent(holding / total)} (${holding}/${total})`,
    failed > 0 ? `${failed} calls failed` : '',
  );
}

const sandbox = createSandboxAiModel();
// The sandbox model answers with the excerpt sentence nearest the question: a floor for what a model can make of them.
await answerQuality(sandbox, await recallRows('sandbox embeddings', sandbox));

const config = loadConfig(process.env);
const real = config.aiProvider === 'gemini' || config.aiProvider === 'openai' ? createAiModel(config) : null;
if (!real) {
  process.stdout.write('real model: skipped (set GEMINI_API_KEY, or AI_PROVIDER=openai with OPENAI_BASE_URL and OPENAI_MODEL)\n');
} else if (!real.embed) {
  process.stdout.write(`real model: ${real.label} offers no embeddings; its answers are measured with the lexical search\n`);
  await answerQuality(real, await companyWith(null));
} else {
  const set = await recallRows(`${real.label} embeddings`, real);
  await answerQuality(real, set);
}

table.print();
await database.close();
process.exit(0);
