/** PostgreSQL's unique_violation, whether the driver throws it directly or drizzle wraps it as `cause`. */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: string; cause?: { code?: string } } | undefined;
  return candidate?.code === '23505' || candidate?.cause?.code === '23505';
}
