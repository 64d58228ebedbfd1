import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import {
  type ColumnFileTool,
  fileTools,
  type GeminiConfig,
  geminiConfigSchema,
  MAX_COLUMN_TOOLS,
  TOO_MANY_TOOLS,
  TOOL_FILE_MAX_BYTES,
  type ToolFileState,
} from '@embudo/contracts/http/funnels';
import { TEXT_LIMITS, withoutForbiddenCharacters } from '@embudo/contracts/text';
import { boardColumns, columnTemplates, quickReplies } from '../../../db/schema/index.ts';
import type { Db } from '../../platform/db/database.ts';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import { requireWriter, type Actor } from '../../platform/policy/policy.ts';
import type { MediaStorage } from '../../platform/storage/media-storage.ts';
import { listTemplates } from '../templates/index.ts';
import { type BoardEvents, visibleColumn, writableColumn } from './board-edit.service.ts';
import { COLUMN_NOT_FOUND } from './board.service.ts';

export const QUICK_REPLY_NOT_FOUND = 'Respuesta rápida no encontrada.';
export const TEMPLATE_NOT_FOUND = 'Plantilla no encontrada.';
export const TOOL_FILE_TOO_LARGE = 'El archivo de herramienta supera el límite de 5 MB.';
export const TOOL_FILE_MISSING = 'Falta el archivo (campo tool_file).';
/** The name of a tool file sent without one. */
export const TOOL_FILE_FALLBACK_NAME = 'herramienta';

interface Scope {
  db: Db;
  tenantId: string;
  actor: Actor;
}

type QuickReplyRow = typeof quickReplies.$inferSelect;
const quickReplyDto = (row: QuickReplyRow) => ({ id: row.id, columnId: row.columnId, title: row.title, text: row.text });

export async function listQuickReplies(scope: Scope, columnId: string) {
  const column = await visibleColumn(scope, columnId);
  const rows = await scope.db
    .select()
    .from(quickReplies)
    .where(and(eq(quickReplies.tenantId, scope.tenantId), eq(quickReplies.columnId, column.id)))
    .orderBy(asc(quickReplies.createdAt), asc(quickReplies.id));
  return rows.map(quickReplyDto);
}

export async function createQuickReply(scope: Scope, input: { columnId: string; title: string; text: string }) {
  const column = await writableColumn(scope, input.columnId);
  const [row] = await scope.db.insert(quickReplies).values({ tenantId: scope.tenantId, columnId: column.id, title: input.title, text: input.text }).returning();
  return quickReplyDto(row!);
}

/** A quick reply of this tenant whose column's funnel the actor may see and change. */
async function writableQuickReply(scope: Scope, quickReplyId: string) {
  requireWriter(scope.actor);
  const [row] = await scope.db
    .select()
    .from(quickReplies)
    .where(and(eq(quickReplies.tenantId, scope.tenantId), eq(quickReplies.id, quickReplyId)))
    .limit(1);
  if (!row) throw notFound(QUICK_REPLY_NOT_FOUND);
  await visibleColumn(scope, row.columnId).catch(() => {
    throw notFound(QUICK_REPLY_NOT_FOUND);
  });
  return row;
}

export async function updateQuickReply(scope: Scope, quickReplyId: string, input: { title: string; text: string }) {
  const current = await writableQuickReply(scope, quickReplyId);
  const [row] = await scope.db.update(quickReplies).set({ title: input.title, text: input.text }).where(eq(quickReplies.id, current.id)).returning();
  return quickReplyDto(row!);
}

export async function deleteQuickReply(scope: Scope, quickReplyId: string) {
  const current = await writableQuickReply(scope, quickReplyId);
  await scope.db.delete(quickReplies).where(eq(quickReplies.id, current.id));
}

export async function assignedTemplates(scope: Scope, columnId: string) {
  const column = await visibleColumn(scope, columnId);
  const rows = await scope.db
    .select({ templateId: columnTemplates.templateId })
    .from(columnTemplates)
    .where(and(eq(columnTemplates.tenantId, scope.tenantId), eq(columnTemplates.columnId, column.id)))
    .orderBy(asc(columnTemplates.createdAt), asc(columnTemplates.id));
  return { templateIds: rows.map((row) => row.templateId) };
}

/** Replaces the column's templates with `templateIds`; an id that is not this tenant's template refuses the whole change. */
export async function assignTemplates(scope: Scope, columnId: string, templateIds: string[]) {
  const column = await writableColumn(scope, columnId);
  const wanted = [...new Set(templateIds)];
  const own = new Set((await listTemplates(scope.db, scope.tenantId)).map((template) => template.id));
  if (wanted.some((id) => !own.has(id))) throw notFound(TEMPLATE_NOT_FOUND);
  await scope.db.transaction(async (tx) => {
    await tx.delete(columnTemplates).where(and(eq(columnTemplates.tenantId, scope.tenantId), eq(columnTemplates.columnId, column.id)));
    if (wanted.length > 0) {
      await tx.insert(columnTemplates).values(wanted.map((templateId) => ({ tenantId: scope.tenantId, columnId: column.id, templateId })));
    }
  });
  return { templateIds: wanted };
}

/**
 * Reads and indexes the column assistant's knowledge files (the ai module sits above funnels and implements it):
 * `read` judges the file by its content and extracts its text, or throws a 400 saying why it cannot be read.
 */
export interface ToolFileKnowledge {
  read(upload: { fileName: string; data: Buffer }): Promise<{ extension: string; text: string }>;
  index(file: { tenantId: string; filePath: string; fileName: string; text: string }): Promise<unknown>;
  /** Where each file's indexing stands (the dialog shows it); a path never indexed for this company is left out. */
  states(tenantId: string, filePaths: string[]): Promise<ToolFileState[]>;
}

/**
 * Spec 01: POST /api/columns/{id}/tools/upload. The file is read before anything is written, so a refusal stores
 * nothing. It is then stored members-only (it never leaves the company), indexed, and added to the column's assistant
 * config under a lock of the column's row: an upload running at the same time adds its file after this one instead of
 * replacing it (issue 44). Answers the file tool added.
 */
export async function uploadToolFile(
  scope: Scope & { storage: MediaStorage; toolFiles: ToolFileKnowledge; events: Pick<BoardEvents, 'boardUpdated'> },
  columnId: string,
  upload: { data: Buffer; fileName: string },
): Promise<ColumnFileTool> {
  const column = await writableColumn(scope, columnId);
  if (upload.data.length === 0) throw badRequest(TOOL_FILE_MISSING);
  if (upload.data.length > TOOL_FILE_MAX_BYTES) throw badRequest(TOOL_FILE_TOO_LARGE);
  requireRoomForATool(column.geminiConfig);
  const fileName = toolFileName(upload.fileName);
  const { extension, text } = await scope.toolFiles.read({ fileName, data: upload.data });
  const filePath = await scope.storage.save(scope.tenantId, upload.data, extension, 'members');
  await scope.toolFiles.index({ tenantId: scope.tenantId, filePath, fileName, text });
  const tool: ColumnFileTool = { type: 'file_upload', id: randomUUID(), fileName, filePath, purpose: '' };
  await scope.db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ geminiConfig: boardColumns.geminiConfig })
      .from(boardColumns)
      .where(and(eq(boardColumns.tenantId, scope.tenantId), eq(boardColumns.id, column.id)))
      .for('update');
    if (!locked) throw notFound(COLUMN_NOT_FOUND);
    requireRoomForATool(locked.geminiConfig);
    const config = locked.geminiConfig ?? geminiConfigSchema.parse({ isEnabled: false });
    await tx
      .update(boardColumns)
      .set({ geminiConfig: { ...config, tools: [...config.tools, tool] } })
      .where(eq(boardColumns.id, column.id));
  });
  scope.events.boardUpdated(scope.tenantId, column.funnelId);
  return tool;
}

function requireRoomForATool(config: GeminiConfig | null) {
  if ((config?.tools.length ?? 0) >= MAX_COLUMN_TOOLS) throw badRequest(TOO_MANY_TOOLS);
}

/** The name as the column's config keeps it (and the dialog saves it back): without folders or unsafe characters, never blank. */
function toolFileName(sent: string) {
  const base = withoutForbiddenCharacters(sent.split(/[\\/]/).pop() ?? '').trim();
  return base.slice(0, TEXT_LIMITS.fileName) || TOOL_FILE_FALLBACK_NAME;
}

/**
 * Issue 44: the column assistant's knowledge files with where their indexing stands, for the dialog. Only files the
 * column names, and only this company's: a path another company indexed is not this column's file.
 */
export async function toolFileStates(scope: Scope & { toolFiles: ToolFileKnowledge }, columnId: string): Promise<ToolFileState[]> {
  const column = await writableColumn(scope, columnId);
  const filePaths = column.geminiConfig ? fileTools(column.geminiConfig.tools).map((tool) => tool.filePath) : [];
  return scope.toolFiles.states(scope.tenantId, [...new Set(filePaths)]);
}
