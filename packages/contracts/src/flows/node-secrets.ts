import type { NodeType } from './flow.ts';
import { sendImageSecrets } from './nodes/sendImage.ts';

/**
 * Credentials in a bot's nodes are write-only: every answer carries them masked, and a node saved
 * back with the mask keeps the stored secret (a new value replaces it, an empty one removes it).
 */
export const nodeSecretFields: Partial<Record<NodeType, readonly string[]>> = {
  sendImage: sendImageSecrets,
};

export const SECRET_MASK = '••••••';
/** Shorter secrets show no characters at all: four of them would give too much away. */
const SHOWS_LAST_FOUR_FROM = 12;

/** "••••••" and, for a long enough secret, its last four characters, so the owner can tell which one is stored. */
export function maskSecret(plain: string): string {
  return plain.length >= SHOWS_LAST_FOUR_FROM ? `${SECRET_MASK}${plain.slice(-4)}` : SECRET_MASK;
}

export const isMaskedSecret = (value: string) => value.startsWith(SECRET_MASK);

export const secretFieldsOf = (type: string): readonly string[] => nodeSecretFields[type as NodeType] ?? [];
