import { parse, protocol, types, type messages as protocolMessages, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';

/** Statement texts kept prepared at once; the least recently used one is closed beyond it. */
export const PREPARED_STATEMENTS_KEPT = 400;
/** Texts remembered as seen once, so a text used a single time (a one-off multi-row insert) is never prepared. */
const SEEN_ONCE_KEPT = 2_000;

interface Prepared {
  name: string;
  /** The parameters' type oids, as the server inferred them when the statement was prepared. */
  paramTypes: number[];
}

/** A statement that no longer fits the schema it was prepared against (a table changed under it): prepare it again. */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);

const serialize = protocol.serialize;

function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/**
 * Named prepared statements for the embedded database. PGlite's `query` parses, describes and plans every statement
 * again, in five calls into PostgreSQL: a read by primary key spent 0.5 ms planning and 0.1 ms running. A text run a
 * second time is prepared once under a name; from then on one call binds, describes and executes it, and PostgreSQL
 * keeps its plan (a generic plan after a few runs, as it decides for any prepared statement). The answer is the one
 * `query` gives: the same type serializers and parsers, the same rows and errors.
 *
 * `run` must be called inside PGlite's exclusive query section (the caller holds it), and answers undefined for a text
 * it leaves to `query` (seen once so far, a call that ships a file, or, outside a transaction, a statement found stale:
 * `query` runs it afresh; inside one the error stands, as the transaction is aborted by then).
 */
export class PgliteStatements {
  private readonly prepared = new Map<string, Prepared>();
  private readonly seenOnce = new Set<string>();
  private readonly closing: string[] = [];
  private sequence = 0;

  constructor(private readonly pg: PGlite) {}

  async run<T>(
    text: string,
    params: readonly unknown[] | undefined,
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<T> | undefined> {
    if (options?.blob || options?.paramTypes) return undefined;
    let statement = this.prepared.get(text);
    if (!statement) {
      if (!this.seenOnce.has(text)) {
        this.rememberSeen(text);
        return undefined;
      }
      this.seenOnce.delete(text);
      statement = await this.prepare(text);
    } else {
      // Most recently used last: the Map's order is the eviction order.
      this.prepared.delete(text);
      this.prepared.set(text, statement);
    }
    try {
      return await this.execute<T>(statement, text, params ?? [], options);
    } catch (error) {
      if (!STALE_STATEMENT_CODES.has((error as { code?: string }).code ?? '')) throw error;
      this.forget(text);
      if (inTransaction) throw error;
      return undefined;
    }
  }

  private rememberSeen(text: string) {
    if (this.seenOnce.size >= SEEN_ONCE_KEPT) this.seenOnce.delete(this.seenOnce.values().next().value!);
    this.seenOnce.add(text);
  }

  private async prepare(text: string): Promise<Prepared> {
    const name = `embudo_${++this.sequence}`;
    const closes = this.closing.splice(0).map((stale) => serialize.close({ type: 'S', name: stale }));
    const messages = await this.call(
      joined([...closes, serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      text,
      undefined,
      undefined,
    );
    const statement = { name, paramTypes: parse.parseDescribeStatementResults(messages) };
    this.prepared.set(text, statement);
    if (this.prepared.size > PREPARED_STATEMENTS_KEPT) this.forget(this.prepared.keys().next().value!);
    return statement;
  }

  /** Drops a statement; the server side is closed with the next prepare (in the exclusive section, like every call). */
  private forget(text: string) {
    const statement = this.prepared.get(text);
    if (!statement) return;
    this.prepared.delete(text);
    this.closing.push(statement.name);
  }

  private async execute<T>(statement: Prepared, text: string, params: readonly unknown[], options: QueryOptions | undefined): Promise<Results<T>> {
    const values = params.map((param, index) => {
      if (param === null || param === undefined) return null;
      const type = statement.paramTypes[index]!;
      const toText = options?.serializers?.[type] ?? this.pg.serializers[type];
      return toText ? toText(param) : String(param);
    });
    const messages = await this.call(
      joined([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      text,
      params,
      options,
    );
    return resultOf<T>(messages, this.pg.parsers, options);
  }

  /** One call into PostgreSQL; an error answer is thrown once the whole message (its Sync included) is processed. */
  private async call(message: Uint8Array, query: string, params: readonly unknown[] | undefined, queryOptions: QueryOptions | undefined) {
    try {
      return await this.pg.execProtocolStream(message, { syncToFs: false, onNotice: queryOptions?.onNotice });
    } catch (error) {
      // As PGlite's own query errors say: which statement, with which parameters.
      if (error instanceof Error) Object.assign(error, { query, params, queryOptions });
      throw error;
    }
  }
}

type Parser = (value: string, typeId: number) => unknown;

/**
 * The result of one statement, as PGlite's `parseResults` reads it, without what made that cost 0.1 ms a query: it
 * copies the database's 318 type parsers into a new object whenever the caller passes parsers of its own, which drizzle
 * does on every query. Here each column's parser is looked up once per result.
 */
export function resultOf<T>(
  messages: readonly protocolMessages.BackendMessage[],
  defaults: Record<number, Parser>,
  options: QueryOptions | undefined,
): Results<T> {
  const own = options?.parsers as Record<number, Parser> | undefined;
  const asArrays = options?.rowMode === 'array';
  let fields: Array<{ name: string; dataTypeID: number }> = [];
  let parsers: Array<Parser | undefined> = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  let rowCount: number | undefined;
  let command: string | undefined;
  for (const message of messages) {
    if (message.name === 'rowDescription') {
      fields = (message as protocolMessages.RowDescriptionMessage).fields.map((field) => ({ name: field.name, dataTypeID: field.dataTypeID }));
      parsers = fields.map(({ dataTypeID }) => own?.[dataTypeID] ?? defaults[dataTypeID] ?? (types.parsers as Record<number, Parser>)[dataTypeID]);
    } else if (message.name === 'dataRow') {
      const values = (message as protocolMessages.DataRowMessage).fields.map((value, column) => {
        const parser = parsers[column];
        return value === null || !parser ? value : parser(value, fields[column]!.dataTypeID);
      });
      rows.push(asArrays ? values : Object.fromEntries(values.map((value, column) => [fields[column]!.name, value])));
    } else if (message.name === 'commandComplete') {
      const words = (message as protocolMessages.CommandCompleteMessage).text.split(' ');
      command = words[0];
      const count = Number.parseInt(words[words.length - 1]!, 10);
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(words[0]!)) affectedRows += count;
      if (!Number.isNaN(count)) rowCount = count;
    }
  }
  return {
    rows: rows as T[],
    fields,
    affectedRows,
    ...(command === undefined ? {} : { command }),
    ...(rowCount === undefined ? {} : { rowCount }),
  } as Results<T>;
}
