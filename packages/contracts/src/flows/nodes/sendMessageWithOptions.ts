import { z } from 'zod';
import { nodeLabel, nodePartId, nodeText } from '../node-fields.ts';

export const MAX_NODE_OPTIONS = 10;

/** Each option is also an output handle: the edge whose sourceHandle is the option id follows the choice. */
export const flowOption = z.object({
  id: nodePartId('Cada opción necesita un id.'),
  label: nodeText('La opción', 100),
  value: nodeText('El valor de la opción', 500),
});
export type FlowOption = z.infer<typeof flowOption>;

export const sendMessageWithOptionsData = z
  .object({
    label: nodeLabel,
    text: nodeText('El mensaje'),
    options: z.array(flowOption, { error: 'options debe ser una lista.' }).max(MAX_NODE_OPTIONS, { error: `Como máximo ${MAX_NODE_OPTIONS} opciones.` }),
  })
  .refine((data) => new Set(data.options.map((option) => option.id)).size === data.options.length, {
    error: 'Cada opción necesita un id distinto.',
    path: ['options'],
  });
export type SendMessageWithOptionsData = z.infer<typeof sendMessageWithOptionsData>;

export const sendMessageWithOptionsDefaults: SendMessageWithOptionsData = {
  label: 'Mensaje con Opciones',
  text: '¿Qué deseas hacer?',
  options: [
    { id: 'opcion-1', label: 'Opción 1', value: 'opcion_1' },
    { id: 'opcion-2', label: 'Opción 2', value: 'opcion_2' },
  ],
};
