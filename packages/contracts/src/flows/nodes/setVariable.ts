import { z } from 'zod';
import { trimmedText } from '../../text.ts';
import { nodeLabel, nodeText } from '../node-fields.ts';

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;

export const setVariableData = z.object({
  label: nodeLabel,
  varName: trimmedText(100, {
    error: 'El nombre de la variable debe ser texto.',
    tooLong: 'El nombre de la variable admite como máximo 100 caracteres.',
  }).refine((name) => name === '' || VARIABLE_NAME.test(name), {
    error: 'El nombre de la variable solo admite letras, números, guiones bajos y puntos, sin empezar por un número.',
  }),
  varValue: nodeText('El valor'),
});
export type SetVariableData = z.infer<typeof setVariableData>;

export const setVariableDefaults: SetVariableData = { label: 'Establecer Variable', varName: '', varValue: '' };
