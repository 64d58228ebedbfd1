import type { BotConfig, FlowNode } from '@embudo/contracts/flows/flow';
import { isMaskedSecret, maskSecret, secretFieldsOf } from '@embudo/contracts/flows/node-secrets';
import type { SecretBox } from '../../platform/crypto/secret-box.ts';
import { badRequest } from '../../platform/errors/app-error.ts';

/**
 * Credentials in bot nodes (the image node's access token) are sealed with the app's secret box
 * in the stored flow, answered only masked, and opened only to run the flow.
 */

const SEALED = /^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]*$/;

export const maskWithoutSecret = (label: string) => `Nodo «${label}»: no hay un token guardado para este nodo; escríbelo de nuevo.`;

type Rewrite = (value: string, node: FlowNode, field: string) => string;

/** Every non-empty secret field of the flow through `rewrite`; an empty one stays empty (no secret). */
function rewriteSecrets(config: BotConfig, rewrite: Rewrite): BotConfig {
  return {
    ...config,
    nodes: config.nodes.map((node) => {
      const fields = secretFieldsOf(node.type);
      if (fields.length === 0) return node;
      const data: Record<string, unknown> = { ...node.data };
      for (const field of fields) {
        const value = data[field];
        if (typeof value === 'string' && value !== '') data[field] = rewrite(value, node, field);
      }
      return { ...node, data } as FlowNode;
    }),
  };
}

/**
 * The plain secret of a stored value. Flows saved before secrets were sealed hold them plain; a value
 * sealed under another APP_SECRET cannot be read and counts as no secret (the owner types it again).
 */
function openStored(box: SecretBox, stored: string): string {
  if (!SEALED.test(stored)) return stored;
  try {
    return box.open(stored);
  } catch {
    return '';
  }
}

/** The stored value a node sent back masked stands for, or a 400 when its mask matches no stored secret of that node. */
function storedValueOf(stored: BotConfig, node: FlowNode, field: string, masked: string, box: SecretBox): string {
  const previous = stored.nodes.find((candidate) => candidate.id === node.id && candidate.type === node.type);
  const value = (previous?.data as Record<string, unknown> | undefined)?.[field];
  if (typeof value !== 'string' || value === '' || maskSecret(openStored(box, value)) !== masked) throw badRequest(maskWithoutSecret(node.data.label));
  return value;
}

/** What GET, PUT and any other answer show of a stored flow. */
export function maskedConfig(box: SecretBox, stored: BotConfig): BotConfig {
  return rewriteSecrets(stored, (value) => maskSecret(openStored(box, value)));
}

/** The flow to store: a mask sent back keeps the stored secret, a new value is sealed, an empty one clears it. */
export function sealedConfig(box: SecretBox, incoming: BotConfig, stored: BotConfig): BotConfig {
  return rewriteSecrets(incoming, (value, node, field) => {
    if (!isMaskedSecret(value)) return box.seal(value);
    const kept = storedValueOf(stored, node, field, value, box);
    return SEALED.test(kept) ? kept : box.seal(kept);
  });
}

/** The playground's unsaved flow, ready to run: masks stand for the stored secrets, new values run as typed. */
export function runnableDraft(box: SecretBox, incoming: BotConfig, stored: BotConfig): BotConfig {
  return rewriteSecrets(incoming, (value, node, field) => (isMaskedSecret(value) ? openStored(box, storedValueOf(stored, node, field, value, box)) : value));
}

/** A stored flow, ready to run in a live chat. */
export function runnableConfig(box: SecretBox, stored: BotConfig): BotConfig {
  return rewriteSecrets(stored, (value) => openStored(box, value));
}
