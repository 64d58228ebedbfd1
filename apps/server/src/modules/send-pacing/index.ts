/**
 * The send-pacing module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Token buckets per sending number, shared by every process through the
 * database (docs/decisions/0017): bulk sends take their tokens, rate-limit answers slow a number down, the operator
 * sets its rate. Imports tenants.
 */
export {
  DEFAULT_PACING_TUNING,
  type PacingTuning,
  PROVIDER_DEFAULT_RATES,
  SendPacer,
  slowsTheNumber,
  type SendRateView,
  type TokenGrant,
} from './send-pacer.ts';
