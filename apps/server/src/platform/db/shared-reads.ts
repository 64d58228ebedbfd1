/**
 * One costly read shared by everyone who asks for the same thing at about the same time, without ever answering a
 * caller with a read that started before it asked: a caller arriving while a read runs waits for the next one, which
 * starts when the running one ends. Every caller of one key gets what the database held at some moment after its call.
 *
 * Reads of one key are also spaced: the next starts no sooner than `gapFactor` times the last one's duration after it
 * ended, so a read that takes long (a company's whole bulk-send history, recounted on every dashboard refresh) holds
 * at most 1 / (1 + gapFactor) of the database's time whatever the number of callers, and a cheap read waits next to
 * nothing.
 */
export class SharedReads<T> {
  private readonly keys = new Map<string, KeyState<T>>();

  constructor(private readonly options: { gapFactor: number }) {}

  /** The callers of one key must all ask for the same read: whichever `load` is scheduled first serves them all. */
  read(key: string, load: () => Promise<T>): Promise<T> {
    const state = this.keys.get(key) ?? this.newState(key);
    // A scheduled read has not started yet, so it will start after this call: this caller may share it.
    return (state.next ?? this.schedule(key, state, load)).result;
  }

  private newState(key: string): KeyState<T> {
    const state: KeyState<T> = { running: false, endedAt: 0, lastDurationMs: 0 };
    this.keys.set(key, state);
    return state;
  }

  private schedule(key: string, state: KeyState<T>, load: () => Promise<T>): PendingRead<T> {
    let settle!: { resolve: (value: T) => void; reject: (error: unknown) => void };
    const result = new Promise<T>((resolve, reject) => {
      settle = { resolve, reject };
    });
    const pending: PendingRead<T> = { result, load, settle, timer: undefined };
    state.next = pending;
    if (!state.running) this.startWhenSpaced(key, state);
    return pending;
  }

  /** Starts the scheduled read once the spacing after the last one has passed. */
  private startWhenSpaced(key: string, state: KeyState<T>) {
    const pending = state.next;
    if (!pending || pending.timer) return;
    const waitMs = state.endedAt + state.lastDurationMs * this.options.gapFactor - performance.now();
    if (waitMs <= 0) {
      void this.run(key, state);
      return;
    }
    pending.timer = setTimeout(() => void this.run(key, state), waitMs);
  }

  private async run(key: string, state: KeyState<T>) {
    const pending = state.next!;
    state.next = undefined;
    state.running = true;
    const startedAt = performance.now();
    try {
      pending.settle.resolve(await pending.load());
    } catch (error) {
      pending.settle.reject(error);
    } finally {
      state.running = false;
      state.endedAt = performance.now();
      state.lastDurationMs = state.endedAt - startedAt;
      if (state.next) this.startWhenSpaced(key, state);
      else this.forgetAfterSpacing(key, state);
    }
  }

  /** Nothing waits: the key is kept while its spacing lasts (a caller then still waits for it), and forgotten after. */
  private forgetAfterSpacing(key: string, state: KeyState<T>) {
    setTimeout(() => {
      if (this.keys.get(key) === state && !state.running && !state.next) this.keys.delete(key);
    }, state.lastDurationMs * this.options.gapFactor).unref();
  }
}

interface PendingRead<T> {
  result: Promise<T>;
  load: () => Promise<T>;
  settle: { resolve: (value: T) => void; reject: (error: unknown) => void };
  timer: NodeJS.Timeout | undefined;
}

interface KeyState<T> {
  running: boolean;
  /** The read that starts next: every caller since the running read started shares it. */
  next?: PendingRead<T>;
  endedAt: number;
  lastDurationMs: number;
}
