import { AsyncLocalStorage } from 'node:async_hooks';
import { EventEmitter } from 'node:events';

/** A rest owed this long (ms) or longer follows a hold long enough for requests to have come unseen. */
const LONG_HOLD_REST_MS = 20;
/** How long background work owed such a rest waits for requests to show before it goes on without them. */
const UNREAD_REQUESTS_LOOK_MS = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Which async context is background work (a job run) and whether it already holds a database permit. */
interface BackgroundContext {
  holding: number;
}

/** Ends a piece of work's turn at the database; `busyMs`: how long it held the embedded database's one connection. */
export type LeaveGate = (busyMs?: number) => void;

/** Told when another process (PostgreSQL `NOTIFY`) or this one enqueued jobs. */
export type JobsEnqueuedListener = () => void;

/**
 * What the driver wrappers of one database share (docs/decisions/0016):
 * - permits: background work holds at most `backgroundPermits` connections (or places in PGlite's one queue)
 *   at once, so a request's query always finds a connection, or waits behind at most that many job statements;
 * - on the embedded database (`backgroundShare`), a time share: while requests have statements in flight, background
 *   work rests after each statement or transaction for as long as it held the connection times (1 - share) / share,
 *   so requests get the rest of it. PGlite runs one statement at a time and a background transaction holds it whole:
 *   with one permit alone, an unpaced bulk send took most of it, and the API's p95 went from 283 ms idle to 1.8 s.
 *   After a long hold no request may be in flight yet though requests wait (unread, see `LONG_HOLD_REST_MS`): a
 *   vacuum of 300,000 messages (~320 ms) and the analyze after it ran back to back while requests waited for both;
 * - the number of statements sent, so a test can count what an operation costs;
 * - the "jobs enqueued" signal: in-process on both databases, and across processes through `LISTEN` on PostgreSQL.
 */
export class DatabaseGate {
  /** Statements sent to the database since it opened (a transaction's BEGIN and COMMIT count). */
  statements = 0;
  /** Statements sent by one piece of work and what it started, whatever else runs meanwhile (see `countStatements`). */
  private readonly counting = new AsyncLocalStorage<{ statements: number }>();
  readonly backgroundPermits: number;
  private inUse = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly background = new AsyncLocalStorage<BackgroundContext>();
  private readonly enqueued = new EventEmitter();
  private crossProcess: ((onNotify: () => void) => Promise<() => Promise<void>>) | undefined;

  /** The share of the connection background work may take while requests wait; 1: no resting (PostgreSQL's pool). */
  readonly backgroundShare: number;
  /** Statements and transactions of requests (not background work) under way now. */
  private foregroundInFlight = 0;
  /** Statements and transactions of requests since the database opened. */
  private foregroundEntered = 0;
  /** Background work that enters before this time (performance.now()) while requests are in flight rests until it. */
  private restUntil = 0;

  constructor(options: { backgroundPermits: number; backgroundShare?: number }) {
    if (!(Number.isInteger(options.backgroundPermits) && options.backgroundPermits >= 1)) throw new Error('backgroundPermits must be a positive integer');
    const share = options.backgroundShare ?? 1;
    if (!(share > 0 && share <= 1)) throw new Error('backgroundShare must be in (0, 1]');
    this.backgroundPermits = options.backgroundPermits;
    this.backgroundShare = share;
    // Every running queue of this process subscribes; more than ten is normal in tests.
    this.enqueued.setMaxListeners(0);
  }

  /** Called by the driver for each statement it sends. */
  counted(statements: number): void {
    this.statements += statements;
    const scope = this.counting.getStore();
    if (scope) scope.statements += statements;
  }

  /** Runs `work` and answers how many statements it (and what it awaited) sent: what an operation costs, for tests. */
  async countStatements<T>(work: () => PromiseLike<T>): Promise<{ result: T; statements: number }> {
    const scope = { statements: 0 };
    const result = await this.counting.run(scope, () => startedHere(work));
    return { result, statements: scope.statements };
  }

  /** Runs `work` as background work: its statements take permits. */
  runInBackground<T>(work: () => PromiseLike<T>): Promise<T> {
    return this.background.run({ holding: 0 }, () => startedHere(work));
  }

  /** Background permits in use now (tests, metrics). */
  get backgroundInUse(): number {
    return this.inUse;
  }

  /**
   * Called by the driver before a statement or a transaction takes the connection. Outside background work it
   * answers at once. Background work that already holds a permit (a statement inside its own transaction) does not
   * take a second one, so it cannot wait on itself. Background work that takes a permit while requests are in flight
   * first rests out its time share (`backgroundShare`).
   */
  async enter(): Promise<LeaveGate> {
    const context = this.background.getStore();
    if (!context) {
      this.foregroundInFlight++;
      this.foregroundEntered++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        this.foregroundInFlight--;
      };
    }
    if (context.holding > 0) return () => {};
    context.holding++;
    if (this.inUse < this.backgroundPermits) this.inUse++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the releaser hands its permit over
    let requestsCame = false;
    if (this.restUntil - performance.now() >= LONG_HOLD_REST_MS && this.foregroundInFlight === 0) {
      // A long hold (a vacuum, a large batch) kept PGlite busy on this thread: requests that arrived meanwhile are
      // still unread in their sockets, and none is in flight yet. A short look lets the event loop read them.
      const entered = this.foregroundEntered;
      await sleep(UNREAD_REQUESTS_LOOK_MS);
      requestsCame = this.foregroundEntered !== entered;
    }
    const rest = this.restUntil - performance.now();
    if (rest > 0 && (this.foregroundInFlight > 0 || requestsCame)) await sleep(rest);
    let released = false;
    return (busyMs = 0) => {
      if (released) return;
      released = true;
      context.holding--;
      if (busyMs > 0 && this.backgroundShare < 1) {
        this.restUntil = Math.max(this.restUntil, performance.now() + (busyMs * (1 - this.backgroundShare)) / this.backgroundShare);
      }
      const next = this.waiting.shift();
      if (next) next();
      else this.inUse--;
    };
  }

  /** Tells every queue of this database that jobs were committed (other processes learn it from `NOTIFY`). */
  announceJobsEnqueued(): void {
    this.enqueued.emit('jobs');
  }

  /**
   * Calls `listener` whenever jobs are enqueued, here or (PostgreSQL) in another process. Resolves once listening;
   * the answer stops listening.
   */
  async onJobsEnqueued(listener: JobsEnqueuedListener): Promise<() => Promise<void>> {
    this.enqueued.on('jobs', listener);
    const stopRemote = this.crossProcess ? await this.crossProcess(listener) : async () => {};
    return async () => {
      this.enqueued.off('jobs', listener);
      await stopRemote();
    };
  }

  /** The driver's cross-process channel (PostgreSQL `LISTEN`); PGlite has one process and needs none. */
  listenAcrossProcesses(subscribe: (onNotify: () => void) => Promise<() => Promise<void>>): void {
    this.crossProcess = subscribe;
  }
}

/**
 * Calls `work` and subscribes to its answer in the caller's async context. A drizzle query is a lazy thenable that
 * runs its statement when `then` is called: returned as is from a context's `run`, `then` was called by the awaiting
 * caller outside it, and the statement ran without the context (the embedded upkeep's vacuums ran as requests did).
 */
function startedHere<T>(work: () => PromiseLike<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    work().then(resolve, reject);
  });
}

const gates = new WeakMap<object, DatabaseGate>();

/** `db` is the drizzle database the gate's driver serves (typed loosely: database.ts imports this file). */
export function attachGate(db: object, gate: DatabaseGate): void {
  gates.set(db, gate);
}

/** The gate of a database opened by `openPglite`/`openPostgres`; a database built some other way gets a permissive one. */
export function gateOf(db: object): DatabaseGate {
  let gate = gates.get(db);
  if (!gate) {
    gate = new DatabaseGate({ backgroundPermits: Number.MAX_SAFE_INTEGER });
    gates.set(db, gate);
  }
  return gate;
}
