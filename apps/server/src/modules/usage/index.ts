/**
 * The usage module's public face: the only file that other modules, app.ts and other modules' tests import
 * (docs/decisions/0012-module-boundaries.md). Billable usage and the operator's prices. The bottom layer: imports no
 * module.
 */
export {
  type AiUse,
  type AiUsageKind,
  currentPricing,
  dropChargeOfMessage,
  recordAiUsage,
  monthBounds,
  monthCostByTenant,
  monthUsage,
  type Pricing,
  changeAndRecordUsage,
  recordUsage,
  savePricing,
  unbillFailedMessage,
  type UsageKind,
} from './usage.service.ts';
