import { z } from 'zod';

export const columnColors = ['blue', 'orange', 'purple', 'green'] as const;

const name = (message: string) => z.string({ error: message }).trim().min(1, { error: message }).max(120, { error: 'Máximo 120 caracteres.' });

export const createFunnelRequest = z.object({ name: name('El nombre del funnel es requerido.') });
export const renameFunnelRequest = createFunnelRequest;

export const createColumnRequest = z.object({
  funnelId: z.uuid({ error: 'Funnel inválido.' }),
  title: name('El título de la columna es requerido.'),
});

export const updateColumnRequest = z.object({
  title: name('El título de la columna es requerido.').optional(),
  color: z.enum(columnColors, { error: 'Color inválido: usa blue, orange, purple o green.' }).optional(),
});

export const toggleAiRequest = z.object({ enabled: z.boolean({ error: 'Indica enabled: true o false.' }) });

export const moveCardRequest = z.object({
  cardId: z.uuid({ error: 'Chat inválido.' }),
  targetColumnId: z.uuid({ error: 'Columna inválida.' }),
});

export const renameCardRequest = z.object({ title: name('El nombre del chat es requerido.') });

export const COLUMN_HAS_CHATS = 'No se puede eliminar una columna con chats. Mueve los chats primero.';
