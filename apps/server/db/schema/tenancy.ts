import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { GeminiConfig } from '@embudo/contracts/http/funnels';

const id = () =>
  uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const tenants = pgTable(
  'tenants',
  {
    id: id(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    subscriptionPlan: text('subscription_plan', { enum: ['basic', 'professional', 'enterprise'] })
      .notNull()
      .default('basic'),
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    timezone: text('timezone').notNull().default('UTC'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('tenants_slug_key').on(t.slug)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'agent', 'viewer'] }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    forcePasswordChange: boolean('force_password_change').notNull().default(false),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('users_tenant_email_key').on(t.tenantId, t.email)],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sessions_token_hash_key').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

export const platformAdmins = pgTable(
  'platform_admins',
  {
    id: id(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('platform_admins_email_key').on(t.email)],
);

export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => platformAdmins.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('admin_sessions_token_hash_key').on(t.tokenHash)],
);

/**
 * Sign-in throttling state, one row per account or client address (docs/decisions/0010). An attempt is
 * claimed here before its password is verified; the claim is undone when the password was right.
 */
export const signInThrottle = pgTable(
  'sign_in_throttle',
  {
    key: text('key').primaryKey(),
    /** Claimed attempts since the key was last quiet for a whole window. */
    failures: integer('failures').notNull(),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull(),
    /** No attempt is verified for this key before this time. */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_throttle_last_failure_idx').on(t.lastFailureAt)],
);

export const funnels = pgTable(
  'funnels',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('funnels_tenant_idx').on(t.tenantId)],
);

export const boardColumns = pgTable(
  'board_columns',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    funnelId: uuid('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    color: text('color', { enum: ['blue', 'orange', 'purple', 'green'] })
      .notNull()
      .default('blue'),
    position: integer('position').notNull().default(0),
    /** The column's AI assistant (spec 01 §3 Column AI config); null until first configured. */
    geminiConfig: jsonb('gemini_config').$type<GeminiConfig>(),
    /** A Bots Studio bot that answers in this column instead of the generic assistant. */
    assistantBotId: uuid('assistant_bot_id'),
    createdAt: createdAt(),
  },
  (t) => [index('board_columns_funnel_idx').on(t.tenantId, t.funnelId)],
);

export const userFunnelAccess = pgTable(
  'user_funnel_access',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    funnelId: uuid('funnel_id')
      .notNull()
      .references(() => funnels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.funnelId] })],
);
