import { createHash } from 'node:crypto';

/** Statement texts given a name at most; beyond it new texts run unnamed (PostgreSQL keeps a connection's prepared statements until it closes). */
export const NAMED_STATEMENTS_KEPT = 1_000;
/** Texts remembered as seen once, so a text used a single time (a one-off multi-row insert) is never prepared. */
const SEEN_ONCE_KEPT = 5_000;
/** A prepared statement that no longer fits its table (changed by a migration while this process ran). */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);

/**
 * Names for the statements node-postgres runs, so each connection parses and plans a repeated text once and then only
 * binds and executes it (node-postgres prepares a named statement on a connection the first time it runs there). A
 * name is the text's hash, so every connection and process agrees on it; a text is named from its second run on. A
 * named statement that PostgreSQL reports stale (its table changed shape) is given a new name for its next run.
 */
export class PostgresStatementNames {
  private readonly names = new Map<string, string>();
  private readonly seenOnce = new Set<string>();
  private readonly generations = new Map<string, number>();

  /** The name to run `text` under, or undefined to run it unnamed. */
  nameFor(text: string): string | undefined {
    const known = this.names.get(text);
    if (known) return known;
    if (!this.seenOnce.has(text)) {
      if (this.seenOnce.size >= SEEN_ONCE_KEPT) this.seenOnce.delete(this.seenOnce.values().next().value!);
      this.seenOnce.add(text);
      return undefined;
    }
    if (this.names.size >= NAMED_STATEMENTS_KEPT) return undefined;
    this.seenOnce.delete(text);
    const generation = this.generations.get(text) ?? 0;
    const name = `embudo_${createHash('sha1').update(text).digest('hex').slice(0, 20)}${generation > 0 ? `_${generation}` : ''}`;
    this.names.set(text, name);
    return name;
  }

  /** Told of a named statement's failure: a stale one is named anew, so its next run prepares it again. */
  failed(text: string, error: unknown): void {
    if (!STALE_STATEMENT_CODES.has((error as { code?: string } | null)?.code ?? '')) return;
    if (!this.names.delete(text)) return;
    this.generations.set(text, (this.generations.get(text) ?? 0) + 1);
    this.seenOnce.add(text);
  }

  /**
   * Wraps a node-postgres client's `query` so that repeated statements run named. Only the form drizzle uses is named:
   * a config object with `text` and no name of its own; its result or error travels back unchanged, by promise or callback.
   */
  wrapQuery(query: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
    return (...args: unknown[]) => {
      const [config] = args;
      if (typeof config !== 'object' || config === null || typeof (config as { text?: unknown }).text !== 'string' || (config as { name?: unknown }).name) {
        return query(...args);
      }
      const text = (config as { text: string }).text;
      const name = this.nameFor(text);
      if (!name) return query(...args);
      args[0] = { ...config, name };
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = (error: unknown, result: unknown) => {
          if (error) this.failed(text, error);
          (callback as (error: unknown, result: unknown) => void)(error, result);
        };
        return query(...args);
      }
      return (query(...args) as Promise<unknown>).catch((error: unknown) => {
        this.failed(text, error);
        throw error;
      });
    };
  }
}
