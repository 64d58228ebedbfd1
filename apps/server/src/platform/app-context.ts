import type { Db } from './db/database.ts';
import type { EventBus } from './events/index.ts';
import type { Logger } from './logger/logger.ts';
import type { JobQueue } from './queue/job-queue.ts';
import type { Realtime } from './realtime/realtime.ts';
import type { MediaStorage } from './storage/media-storage.ts';
import type { SecretBox } from './crypto/secret-box.ts';
import type { OutboundHttp } from './outbound-http/outbound-http.guard.ts';
import type { Metrics } from './metrics/metrics.ts';

/**
 * The platform pieces every module plugin receives (docs/decisions/0012-module-boundaries.md), built once in app.ts.
 * What one module offers another (a port such as the chats outbound queue) is not here: app.ts passes it to the
 * plugins that need it as a plugin option, so that the dependency stays visible in the list of plugins.
 */
export interface AppContext {
  db: Db;
  log: Logger;
  /** The time sessions, throttling and schedules are judged by; tests move it. */
  clock: () => Date;
  /** Job definitions are registered by the plugin of the module that owns them. */
  queue: JobQueue;
  /** Producers publish in their transaction; each plugin registers its own listeners. */
  domainEvents: EventBus;
  realtime: Realtime;
  /** Prometheus series (GET /metrics) a module reports to, e.g. the outbox lag. */
  metrics: Metrics;
  storage: MediaStorage;
  box: SecretBox;
  /** Requests to URLs from the outside world (bot nodes), refused towards private networks unless allowed. */
  outboundHttp: OutboundHttp;
  /** The in-process fake WhatsApp provider answers instead of Gupshup. */
  sandbox: boolean;
  /** How the outside world reaches this app; lazy, since in tests the port is known once the server listens. */
  publicUrl: () => string;
}
