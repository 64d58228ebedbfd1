import { sql, type SQL } from 'drizzle-orm';
import type { SendRate } from '@embudo/contracts/http/admin';
import { sendRates } from '../../../db/schema/index.ts';
import { queryRows, type Db, type DbExecutor } from '../../platform/db/database.ts';
import type { ProviderFailure, ProviderName } from '../../messaging-providers/provider.ts';
import { providerSettingsOf } from '../tenants/index.ts';

/**
 * What a number may send when the operator set nothing, from each provider's documented limits.
 * - Meta Cloud: 80 messages/s per business number by default (up to 1,000 when Meta upgrades it); over it, 130429.
 * - Gupshup: it documents no per-app send rate (the 429 "10 requests per minute" of its partner page is a page
 *   example). Its numbers ride on Meta's 80/s, but Gupshup's own API limits sit in front and are unconfirmed, so we
 *   start at 20/s — the pace Embudo used until now without rate-limit answers — and let the operator raise it.
 */
export const PROVIDER_DEFAULT_RATES: Record<ProviderName, number> = { meta: 80, gupshup: 20 };

/**
 * The share of its rate a number sends at by the quality the provider reports: a medium (YELLOW) number at half, a
 * low (RED) one at a quarter; GREEN, UNKNOWN or nothing reported at the full rate.
 */
export const QUALITY_PACE = { YELLOW: 0.5, RED: 0.25 } as const;

/** How the bucket behaves; tests and the decision record refer to these. */
export interface PacingTuning {
  /** A rate-limit answer never slows a number below this (or below its configured rate, if lower). */
  floorPerSecond: number;
  /** The bucket holds this many seconds of tokens: what a number may send at once after a pause. */
  burstSeconds: number;
  /** Without a rate-limit answer for this long, the rate climbs one step back towards the configured one. */
  quietMs: number;
  /** Steps from the floor back to the configured rate: each step adds configured ÷ steps (at least 1 msg/s). */
  recoverySteps: number;
  /** Refusals this close to the last halving belong to the same burst of sends and halve once. */
  sameBurstMs: number;
}

export const DEFAULT_PACING_TUNING: PacingTuning = { floorPerSecond: 1, burstSeconds: 1, quietMs: 10_000, recoverySteps: 10, sameBurstMs: 1_000 };

/** Meta's pair rate limit: one customer written to too fast. It says nothing of the number's throughput. */
const PAIR_RATE_LIMIT = '131056';

/**
 * Whether a refusal means the number sends too fast (Meta 130429, Gupshup's HTTP 429 and its 4001), so its rate
 * should drop; a pair rate limit concerns one customer only.
 */
export function slowsTheNumber(failure: ProviderFailure): boolean {
  return failure.kind === 'rate_limited' && failure.code !== PAIR_RATE_LIMIT;
}

/** What `take` allowed: send `granted` now; the rest may go in `waitMs`. */
export interface TokenGrant {
  granted: number;
  /** The number's rate now, in messages per second. */
  rate: number;
  /** 0 when everything asked for was granted; otherwise when the bucket holds enough for the rest (at most a full bucket). */
  waitMs: number;
}

/** A company's send rate as the operator and the dashboard see it (the contract's SendRate). */
export type SendRateView = SendRate;

interface SendingNumber {
  provider: ProviderName;
  /** The bucket's key: provider and number, so a company that changes number starts a fresh bucket. */
  key: string;
}

const float = (value: number) => sql`${value}::float8`;
const at = (date: Date) => sql`${date.toISOString()}::timestamptz`;
const millisBetween = (from: SQL, to: SQL) => sql`(extract(epoch from (${to} - ${from})) * 1000)`;

/**
 * Token buckets per sending number, kept in the database so every process shares them (docs/decisions/0017).
 * Stateless apart from the database: any number of instances, in any number of processes, pace one number together.
 */
export class SendPacer {
  private readonly db: Db;
  private readonly clock: () => Date;
  private readonly tuning: PacingTuning;

  constructor(options: { db: Db; clock: () => Date; tuning?: Partial<PacingTuning> }) {
    this.db = options.db;
    this.clock = options.clock;
    this.tuning = { ...DEFAULT_PACING_TUNING, ...options.tuning };
  }

  /** The number the company sends through today (one per company). */
  private async sendingNumberOf(executor: DbExecutor, tenantId: string): Promise<SendingNumber> {
    const settings = await providerSettingsOf(executor, tenantId);
    return settings.provider === 'meta'
      ? { provider: 'meta', key: `meta:${settings.metaPhoneNumberId ?? ''}` }
      : { provider: 'gupshup', key: `gupshup:${settings.sourceNumber ?? ''}` };
  }

  /** The company's rate setting, as SQL: the operator's row, else the provider's default. */
  private setting(tenantId: string, number: SendingNumber): SQL {
    return sql`coalesce((select r.messages_per_second from send_rates r where r.tenant_id = ${tenantId}::uuid), ${float(PROVIDER_DEFAULT_RATES[number.provider])})`;
  }

  /**
   * The rate the number is paced to, as SQL: its setting scaled by the quality the provider last reported
   * (QUALITY_PACE). A flagged number risks a lower messaging limit, and sending slower gives its quality time to
   * recover; when it does, the bucket climbs back to the full rate one quiet period at a time.
   */
  private configured(tenantId: string, number: SendingNumber): SQL {
    const pace = sql`coalesce((select case p.number_quality when 'YELLOW' then ${float(QUALITY_PACE.YELLOW)} when 'RED' then ${float(QUALITY_PACE.RED)} else 1 end
      from provider_settings p where p.tenant_id = ${tenantId}::uuid), 1)`;
    return sql`(${this.setting(tenantId, number)} * ${pace})`;
  }

  /**
   * The rate after climbing back: one step per quiet period since the rate last changed, never above the
   * configured rate (an operator's lower setting applies at once). `row` names the bucket's columns.
   */
  private recoveredRate(row: string, configured: SQL, now: Date): SQL {
    const bucket = sql.raw(row);
    const step = sql`greatest(1, ${configured} / ${float(this.tuning.recoverySteps)})`;
    const quietPeriods = sql`floor(greatest(0, ${millisBetween(sql`${bucket}.rate_changed_at`, at(now))}) / ${float(this.tuning.quietMs)})`;
    return sql`least(${configured}, ${bucket}.current_rate + ${step} * ${quietPeriods})`;
  }

  private capacity(rate: SQL): SQL {
    return sql`greatest(1, ${rate} * ${float(this.tuning.burstSeconds)})`;
  }

  /** Creates the number's bucket, full, at the configured rate; a bucket already there is left as it is. */
  private async ensureBucket(tenantId: string, number: SendingNumber, now: Date) {
    const configured = this.configured(tenantId, number);
    await this.db.execute(sql`
      insert into send_buckets (tenant_id, sending_number, current_rate, tokens, refilled_at, rate_changed_at)
      select ${tenantId}::uuid, ${number.key}, c.rate, ${this.capacity(sql`c.rate`)}, ${at(now)}, ${at(now)}
      from (select ${configured} as rate) c
      on conflict do nothing`);
  }

  /**
   * Takes up to `want` tokens of the company's number: refills the bucket for the time since its last take (at the
   * recovered rate, up to a full bucket), grants what it holds, and says when the rest may go. One locking statement,
   * so two processes taking at once never both spend the same tokens.
   */
  async take(tenantId: string, want: number): Promise<TokenGrant> {
    const now = this.clock();
    const number = await this.sendingNumberOf(this.db, tenantId);
    const configured = this.configured(tenantId, number);
    const statement = sql`
      with bucket as (
        select b.* from send_buckets b
        where b.tenant_id = ${tenantId}::uuid and b.sending_number = ${number.key}
        for update
      ), paced as (
        select bucket.*, ${this.recoveredRate('bucket', configured, now)} as rate from bucket
      ), filled as (
        select paced.*, least(${this.capacity(sql`paced.rate`)},
          paced.tokens + paced.rate * greatest(0, ${millisBetween(sql`paced.refilled_at`, at(now))}) / 1000) as available
        from paced
      ), taken as (
        update send_buckets b set
          current_rate = f.rate,
          rate_changed_at = case when f.rate <> f.current_rate then ${at(now)} else f.rate_changed_at end,
          tokens = f.available - least(${float(want)}, floor(f.available)),
          refilled_at = greatest(f.refilled_at, ${at(now)})
        from filled f
        where b.tenant_id = f.tenant_id and b.sending_number = f.sending_number
        returning b.tokens, b.current_rate
      )
      select least(${float(want)}, floor(f.available))::int as granted, taken.tokens, taken.current_rate as rate
      from filled f, taken`;
    let [row] = await queryRows<{ granted: number; tokens: number; rate: number }>(this.db, statement);
    if (!row) {
      await this.ensureBucket(tenantId, number, now);
      [row] = await queryRows<{ granted: number; tokens: number; rate: number }>(this.db, statement);
    }
    const { granted, tokens, rate } = row!;
    if (granted >= want) return { granted, rate, waitMs: 0 };
    const fullBucket = Math.max(1, rate * this.tuning.burstSeconds);
    const needed = Math.min(want - granted, fullBucket);
    return { granted, rate, waitMs: Math.max(1, Math.ceil(((needed - tokens) / rate) * 1000)) };
  }

  /**
   * The provider answered "too many requests" (Meta 130429, Gupshup 429): the number's rate halves (not below the
   * floor), its bucket empties, and the climb back starts over after a quiet period. Refusals of the same burst
   * (within `sameBurstMs` of the last halving) only restart the quiet period. Answers the new rate.
   */
  async slowDown(tenantId: string): Promise<number> {
    const now = this.clock();
    const number = await this.sendingNumberOf(this.db, tenantId);
    await this.ensureBucket(tenantId, number, now);
    const configured = this.configured(tenantId, number);
    const newBurst = sql`(send_buckets.slowed_at is null or send_buckets.slowed_at <= ${at(now)} - ${float(this.tuning.sameBurstMs)} * interval '1 millisecond')`;
    const floor = sql`least(${float(this.tuning.floorPerSecond)}, ${configured})`;
    const [row] = await queryRows<{ rate: number }>(
      this.db,
      sql`
      update send_buckets set
        current_rate = case when ${newBurst} then greatest(${floor}, ${this.recoveredRate('send_buckets', configured, now)} / 2) else current_rate end,
        slowed_at = case when ${newBurst} then ${at(now)} else slowed_at end,
        rate_changed_at = ${at(now)},
        tokens = 0,
        refilled_at = ${at(now)}
      where tenant_id = ${tenantId}::uuid and sending_number = ${number.key}
      returning current_rate as rate`,
    );
    return row!.rate;
  }

  /**
   * The company's rate setting and the rate it runs at now, held back by rate-limit answers or by the number's
   * quality (read only: nothing is refilled or spent).
   */
  async rateOf(tenantId: string): Promise<SendRateView> {
    const now = this.clock();
    const number = await this.sendingNumberOf(this.db, tenantId);
    const configured = this.configured(tenantId, number);
    const [row] = await queryRows<{ setting: number; configured: number; is_default: boolean; current: number | null }>(
      this.db,
      sql`
      select ${this.setting(tenantId, number)} as setting, ${configured} as configured,
        not exists (select 1 from send_rates r where r.tenant_id = ${tenantId}::uuid) as is_default,
        (select ${this.recoveredRate('b', configured, now)} from send_buckets b
          where b.tenant_id = ${tenantId}::uuid and b.sending_number = ${number.key}) as current`,
    );
    return { messagesPerSecond: row!.setting, isDefault: row!.is_default, currentMessagesPerSecond: row!.current ?? row!.configured };
  }

  /**
   * The operator's rate for the company's numbers. It applies at once: the buckets run at it from now on (a slowed
   * number no longer climbs towards the old rate) and hold at most a full bucket at it.
   */
  async setRate(tenantId: string, messagesPerSecond: number): Promise<SendRateView> {
    const now = this.clock();
    await this.db.transaction(async (tx) => {
      await tx
        .insert(sendRates)
        .values({ tenantId, messagesPerSecond, updatedAt: now })
        .onConflictDoUpdate({ target: sendRates.tenantId, set: { messagesPerSecond, updatedAt: now } });
      await tx.execute(sql`
        update send_buckets set current_rate = ${float(messagesPerSecond)}, rate_changed_at = ${at(now)}, slowed_at = null,
          tokens = least(tokens, ${this.capacity(float(messagesPerSecond))})
        where tenant_id = ${tenantId}::uuid`);
    });
    return this.rateOf(tenantId);
  }
}
