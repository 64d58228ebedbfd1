/**
 * A lean HTTP/1.1 client for the load worker: one kept-alive socket per request in flight, each request written as
 * one string and its answer parsed from the socket's bytes (Content-Length or chunked). node:http's client (and
 * undici's Response around it) cost the worker about four times what the server spends on a request refused before
 * any query: the server's thread was 33–46% busy while the worker capped the rate, so the benches' HTTP figures
 * measured the client. This one reads only what a load generator needs: the status and the end of the answer.
 */
import net from 'node:net';

/** An answer read to its end; a fetch Response is one too. */
export interface PlainAnswer {
  status: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

interface Target {
  host: string;
  port: number;
  path: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');

/** Where the answer in `bytes` ends, or -1 while it is incomplete. */
function answerEnd(bytes: Buffer, headerEnd: number, head: string): number {
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = headerEnd + Number(length[1]);
    return bytes.length >= end ? end : -1;
  }
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return headerEnd;
  let at = headerEnd;
  for (;;) {
    const sizeEnd = bytes.indexOf(LINE_END, at);
    if (sizeEnd < 0) return -1;
    const size = Number.parseInt(bytes.toString('latin1', at, sizeEnd), 16);
    // A chunk is its size line, its bytes and CRLF; the last (size 0) is followed by the empty trailer's CRLF.
    const chunkEnd = sizeEnd + 2 + size + 2;
    if (bytes.length < chunkEnd) return -1;
    if (size === 0) return chunkEnd;
    at = chunkEnd;
  }
}

class Connection {
  private readonly socket: net.Socket;
  private received: Buffer = Buffer.alloc(0);
  private waiting: { resolve(answer: PlainAnswer): void; reject(error: unknown): void } | undefined;
  closed = false;

  constructor(target: Target) {
    this.socket = net.connect(target.port, target.host);
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('connection closed')));
  }

  send(request: string, signal: AbortSignal): Promise<PlainAnswer> {
    return new Promise((resolve, reject) => {
      const abort = () => {
        this.destroy();
        reject(signal.reason);
      };
      signal.addEventListener('abort', abort, { once: true });
      this.waiting = {
        resolve: (answer) => {
          signal.removeEventListener('abort', abort);
          resolve(answer);
        },
        reject: (error) => {
          signal.removeEventListener('abort', abort);
          reject(error);
        },
      };
      this.socket.write(request, 'latin1');
    });
  }

  destroy() {
    this.closed = true;
    this.socket.destroy();
  }

  private read(chunk: Buffer) {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const headerAt = this.received.indexOf(HEADER_END);
    if (headerAt < 0 || !this.waiting) return;
    const head = this.received.toString('latin1', 0, headerAt);
    const end = answerEnd(this.received, headerAt + HEADER_END.length, head);
    if (end < 0) return;
    const body = this.received.subarray(headerAt + HEADER_END.length, end);
    this.received = this.received.subarray(end);
    if (/\r\nconnection:\s*close/i.test(head)) this.destroy();
    const status = Number(head.slice(9, 12));
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting.resolve({ status, arrayBuffer: async () => body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer });
  }

  private fail(error: unknown) {
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(error);
  }
}

/** Requests over kept-alive connections, as many connections to a server as requests to it are in flight at once. */
export class KeepAliveClient {
  /** Connections waiting for a request, by server (host:port). */
  private readonly idle = new Map<string, Connection[]>();
  private readonly open = new Set<Connection>();

  constructor(private readonly headers: Record<string, string>) {}

  async request(method: string, url: string, body: string | undefined, signal: AbortSignal): Promise<PlainAnswer> {
    const target = targetOf(url);
    const server = `${target.host}:${target.port}`;
    let idle = this.idle.get(server);
    if (!idle) this.idle.set(server, (idle = []));
    // One the server closed while it waited (its keep-alive timeout) would take the request and never answer.
    let connection = idle.pop();
    while (connection?.closed) {
      this.open.delete(connection);
      connection = idle.pop();
    }
    connection ??= this.connect(target);
    const lines = [`${method} ${target.path} HTTP/1.1`, `host: ${server}`];
    for (const [name, value] of Object.entries(this.headers)) lines.push(`${name}: ${value}`);
    if (body !== undefined) lines.push(`content-length: ${Buffer.byteLength(body)}`);
    // Bodies are sent as latin1 bytes of their UTF-8 encoding, so the whole request is one write.
    const request = `${lines.join('\r\n')}\r\n\r\n${body === undefined ? '' : Buffer.from(body).toString('latin1')}`;
    try {
      return await connection.send(request, signal);
    } finally {
      if (connection.closed) this.open.delete(connection);
      else idle.push(connection);
    }
  }

  close() {
    for (const connection of this.open) connection.destroy();
    this.open.clear();
    this.idle.clear();
  }

  private connect(target: Target) {
    const connection = new Connection(target);
    this.open.add(connection);
    return connection;
  }
}

const targets = new Map<string, Target>();
function targetOf(url: string): Target {
  let target = targets.get(url);
  if (!target) {
    const parsed = new URL(url);
    target = { host: parsed.hostname, port: Number(parsed.port || 80), path: `${parsed.pathname}${parsed.search}` };
    targets.set(url, target);
  }
  return target;
}
