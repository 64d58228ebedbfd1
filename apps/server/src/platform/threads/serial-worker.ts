import type { Worker, WorkerOptions } from 'node:worker_threads';
import { AppError, badRequest } from '../errors/app-error.ts';
import { moduleWorker } from './module-worker.ts';

/** Every message a worker posts names the request it answers. */
export interface WorkerMessage {
  id: number;
}

/** A file handed to a worker: a copy of its bytes, so the caller's buffer stays the caller's. */
export interface FileRequest extends WorkerMessage {
  fileName: string;
  data: Uint8Array;
}

export function fileRequest(id: number, fileName: string, data: Buffer): FileRequest {
  return { id, fileName, data: new Uint8Array(data) };
}

/** The request's bytes as a Buffer, on the worker's side (no copy). */
export function bytesOf(request: FileRequest): Buffer {
  return Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength);
}

/** Why a worker could not serve a request: `refused` is the message of a 400 to pass on; `failed`, what went wrong. */
export interface RefusalMessage extends WorkerMessage {
  refused: string | undefined;
  failed: string;
}

/** The worker's side: a request's error as a message (an AppError 400 travels as its message). */
export function refusalMessage(id: number, error: unknown): RefusalMessage {
  return { id, refused: error instanceof AppError && error.code === 'BAD_REQUEST' ? error.message : undefined, failed: String(error) };
}

/** The server's side: the 400 a refusal stands for, or an error that says `what` failed. */
export function errorOfRefusal(message: RefusalMessage, what: string): Error {
  return message.refused === undefined ? new Error(`${what} failed: ${message.failed}`) : badRequest(message.refused);
}

/** How a request's messages settle its answer. */
export interface Settle<T> {
  done(value: T): void;
  fail(error: unknown): void;
}

interface Waiting<Message> {
  onMessage: (message: Message) => void;
  reject: (error: unknown) => void;
  timer: NodeJS.Timeout;
}

export interface SerialWorkerOptions {
  /** The worker's module (`entryBeside`). */
  entry: URL;
  /** What a request failed by its worker's end says (`stop`, a crash, a memory limit). */
  name: string;
  workerOptions?: WorkerOptions;
  /** How long the worker stays once it has nothing to do (IDLE_STOP_MS). */
  idleStopMs?: number;
}

/**
 * How long a worker stays after its last request: requests that come together share its start (hundreds of ms), and
 * after a large read its heap (up to its limit, over a hundred MB) goes back to the system rather than stay for good.
 */
export const IDLE_STOP_MS = 30_000;

/**
 * The module `name` beside the module at `besideUrl`: its JavaScript in the built server, its TypeScript from sources.
 */
export function entryBeside(besideUrl: string, name: string): URL {
  return new URL(`./${name}.${besideUrl.endsWith('.ts') ? 'ts' : 'js'}`, besideUrl);
}

/**
 * Requests served by a worker thread of its own, in arrival order: reads that take seconds of CPU (a PDF, a large
 * workbook) and on the server's thread held every request and webhook meanwhile. The worker starts with the first
 * request and stays until it has been idle a while (unref'd, so it never keeps the process alive). A request that
 * takes longer than its time stops the worker, so the next request starts a new one; a worker that ends (stopped,
 * crashed, past its memory limits) fails the requests it still had.
 */
export class SerialWorker<Message extends WorkerMessage> {
  private worker: Worker | undefined;
  private sequence = 0;
  private readonly waiting = new Map<number, Waiting<Message>>();
  private idleStop: NodeJS.Timeout | undefined;

  constructor(private readonly options: SerialWorkerOptions) {}

  /** Whether a worker is up (started by a request, not yet stopped). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Posts the request `build(id)`; each message the worker answers it with goes to `onMessage`, until that settles the
   * answer. Past `timeoutMs` the answer fails with `tooSlow()` and the worker is stopped.
   */
  request<T>(
    build: (id: number) => unknown,
    onMessage: (message: Message, settle: Settle<T>) => void,
    timing: { timeoutMs: number; tooSlow: () => Error },
  ): Promise<T> {
    clearTimeout(this.idleStop);
    const worker = this.started();
    const id = ++this.sequence;
    return new Promise<T>((resolve, reject) => {
      const settle: Settle<T> = {
        done: (value) => {
          if (this.forget(id)) resolve(value);
        },
        fail: (error) => {
          if (this.forget(id)) reject(error);
        },
      };
      const timer = setTimeout(() => {
        settle.fail(timing.tooSlow());
        void this.stop();
      }, timing.timeoutMs);
      this.waiting.set(id, { onMessage: (message) => onMessage(message, settle), reject, timer });
      worker.postMessage(build(id));
    });
  }

  /** Stops the worker; requests still being served fail. */
  async stop(): Promise<void> {
    clearTimeout(this.idleStop);
    const worker = this.worker;
    this.worker = undefined;
    this.failWaiting(new Error(`${this.options.name} stopped`));
    await worker?.terminate();
  }

  /** Forgets a request as it settles: answers whether it was still waiting (a late message or timeout does nothing). */
  private forget(id: number): boolean {
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    clearTimeout(waiting.timer);
    this.waiting.delete(id);
    if (this.waiting.size === 0 && this.worker) {
      this.idleStop = setTimeout(() => void this.stop(), this.options.idleStopMs ?? IDLE_STOP_MS);
      this.idleStop.unref();
    }
    return true;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = moduleWorker(this.options.entry, this.options.workerOptions);
    worker.unref();
    worker.on('message', (message: Message) => this.waiting.get(message.id)?.onMessage(message));
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failWaiting(error);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`${this.options.name} exited with ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failWaiting(error: Error) {
    for (const [id, waiting] of this.waiting) {
      this.forget(id);
      waiting.reject(error);
    }
  }
}
