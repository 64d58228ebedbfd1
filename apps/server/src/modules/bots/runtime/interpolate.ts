const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g;

/** Replaces {{name}} with the variable's value; an unknown variable becomes empty text. */
export function interpolate(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (_match, name: string) => variables[name] ?? '');
}

/** A variable named in a node field, written bare ("ciudad") or as a placeholder ("{{ciudad}}"). */
export function variableName(field: string): string {
  return field
    .trim()
    .replace(/^\{\{\s*/, '')
    .replace(/\s*\}\}$/, '');
}
