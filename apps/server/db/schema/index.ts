export * from './tenancy.ts';
export * from './jobs.ts';
export * from './messaging.ts';
export * from './templates.ts';
export * from './agenda.ts';
export * from './autobot.ts';
export * from './funnels.ts';
export * from './bulk-sends.ts';
