export * from './tenancy.ts';
export * from './jobs.ts';
