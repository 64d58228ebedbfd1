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
      // Bytes go as they are (the protocol's binary format): no hex text for JavaScript to write and PostgreSQL to read.
      if (type === types.BYTEA && param instanceof Uint8Array) return param;
      const toText = options?.serializers?.[type] ?? this.pg.serializers[type];
      return toText ? toText(param) : String(param);
    });
    const reply = await this.callRaw(
      joined([serialize.bind({ statement: statement.name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
      text,
      params,
    );
    try {
      return resultOf<T>(reply, this.pg.parsers, options);
    } catch (error) {
      throw withStatement(error, text, params, options);
    }
  }

  /** One call into PostgreSQL; an error answer is thrown once the whole message (its Sync included) is processed. */
  private async call(message: Uint8Array, query: string, params: readonly unknown[] | undefined, queryOptions: QueryOptions | undefined) {
    try {
      return await this.pg.execProtocolStream(message, { syncToFs: false, onNotice: queryOptions?.onNotice });
    } catch (error) {
      throw withStatement(error, query, params, queryOptions);
    }
  }

  /**
   * One call into PostgreSQL, answering its reply's bytes (read by resultOf). Streamed: PGlite's `execProtocolRaw`
   * parses the reply too, and copies it twice more.
   */
  private async callRaw(message: Uint8Array, query: string, params: readonly unknown[]) {
    const chunks: Uint8Array[] = [];
    try {
      // Each chunk is a view of PostgreSQL's memory, valid only during the call.
      await this.pg.execProtocolRawStream(message, { syncToFs: false, onRawData: (chunk) => chunks.push(chunk.slice()) });
    } catch (error) {
      throw withStatement(error, query, params, undefined);
    }
    return chunks.length === 1 ? chunks[0]! : joined(chunks);
  }
}

/** As PGlite's own query errors say: which statement, with which parameters. */
function withStatement(error: unknown, query: string, params: readonly unknown[] | undefined, queryOptions: QueryOptions | undefined) {
  if (error instanceof Error) Object.assign(error, { query, params, queryOptions });
  return error;
}

type Parser = (value: string, typeId: number) => unknown;

const BACKEND = { rowDescription: 0x54, dataRow: 0x44, commandComplete: 0x43, error: 0x45, notice: 0x4e } as const;
const COUNTED_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

/**
 * The result of one statement read straight from PostgreSQL's reply bytes, as PGlite's `parseResults` answers it.
 * PGlite's own reading copies every field into a new buffer before decoding it and builds a message object per row
 * (a reply of 50 rows of ten columns: 430 µs run and read its way, 120–180 µs here), and its `parseResults` copies the
 * database's 318 type parsers into a new object whenever the caller passes parsers of its own, which drizzle does on
 * every query. Here each field is decoded in place and each column's parser looked up once per result. An error reply
 * is read by PGlite's parser and thrown as its DatabaseError, after the whole reply (its Sync included) was processed.
 */
export function resultOf<T>(reply: Uint8Array, defaults: Record<number, Parser>, options: QueryOptions | undefined): Results<T> {
  const bytes = Buffer.from(reply.buffer, reply.byteOffset, reply.byteLength);
  const own = options?.parsers as Record<number, Parser> | undefined;
  const asArrays = options?.rowMode === 'array';
  let fields: Array<{ name: string; dataTypeID: number }> = [];
  let parsers: Array<Parser | undefined> = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  let rowCount: number | undefined;
  let command: string | undefined;
  let noticesTold = false;
  for (let offset = 0; offset < bytes.length;) {
    const code = bytes[offset]!;
    // The length counts itself, not the code.
    const end = offset + 1 + bytes.readInt32BE(offset + 1);
    let at = offset + 5;
    if (code === BACKEND.error) throw databaseErrorOf(reply);
    if (code === BACKEND.notice && options?.onNotice && !noticesTold) {
      noticesOf(reply).forEach(options.onNotice);
      noticesTold = true;
    }
    if (code === BACKEND.rowDescription) {
      const count = bytes.readInt16BE(at);
      at += 2;
      fields = [];
      for (let column = 0; column < count; column++) {
        const nameEnd = bytes.indexOf(0, at);
        const name = bytes.toString('utf8', at, nameEnd);
        // Past the name: table oid (4), column number (2), then the type oid.
        fields.push({ name, dataTypeID: bytes.readInt32BE(nameEnd + 7) });
        at = nameEnd + 19;
      }
      parsers = fields.map(({ dataTypeID }) => own?.[dataTypeID] ?? defaults[dataTypeID] ?? (types.parsers as Record<number, Parser>)[dataTypeID]);
    } else if (code === BACKEND.dataRow) {
      const count = bytes.readInt16BE(at);
      at += 2;
      const values: unknown[] = new Array(count);
      for (let column = 0; column < count; column++) {
        const length = bytes.readInt32BE(at);
        at += 4;
        if (length < 0) {
          values[column] = null;
          continue;
        }
        const text = bytes.toString('utf8', at, at + length);
        at += length;
        const parser = parsers[column];
        values[column] = parser ? parser(text, fields[column]!.dataTypeID) : text;
      }
      if (asArrays) rows.push(values);
      else {
        const row: Record<string, unknown> = {};
        for (let column = 0; column < count; column++) row[fields[column]!.name] = values[column];
        rows.push(row);
      }
    } else if (code === BACKEND.commandComplete) {
      const words = bytes.toString('utf8', at, end - 1).split(' ');
      command = words[0];
      const counted = Number.parseInt(words[words.length - 1]!, 10);
      if (COUNTED_COMMANDS.has(words[0]!)) affectedRows += counted;
      if (!Number.isNaN(counted)) rowCount = counted;
    }
    offset = end;
  }
  return {
    rows: rows as T[],
    fields,
    affectedRows,
    ...(command === undefined ? {} : { command }),
    ...(rowCount === undefined ? {} : { rowCount }),
  } as Results<T>;
}

/** The reply's messages as PGlite's parser reads them (the rare replies that carry an error or notices). */
function messagesOf(reply: Uint8Array): protocolMessages.BackendMessage[] {
  const messages: protocolMessages.BackendMessage[] = [];
  new protocol.Parser().parse(reply, (message) => messages.push(message));
  return messages;
}

function databaseErrorOf(reply: Uint8Array): protocolMessages.DatabaseError {
  return messagesOf(reply).find((message): message is protocolMessages.DatabaseError => message.name === 'error')!;
}

function noticesOf(reply: Uint8Array): protocolMessages.NoticeMessage[] {
  return messagesOf(reply).filter((message): message is protocolMessages.NoticeMessage => message.name === 'notice');
}
