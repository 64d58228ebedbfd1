/** The shape of a failed zod parse that forms need (kept structural so the web app needs no zod import). */
interface ParseIssues {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

/** The first message of a failed parse for each top-level field: forms show one message per field. */
export function firstErrorByField(error: ParseIssues | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error?.issues ?? []) {
    const field = String(issue.path[0] ?? '');
    if (!(field in errors)) errors[field] = issue.message;
  }
  return errors;
}
