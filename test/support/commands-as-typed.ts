/**
 * Card text with its command tokens written as Slack and the playground show them (`/reel status abc`, as
 * inline code), so core tests read a card the way a member reads it there. Everything else stays as the core
 * wrote it (escapes, mention tokens).
 */
import { typedCommand } from '../../src/core/text/command-ref.js';
import { type Piece, pieceSource, restore, shield } from '../../src/core/text/text.js';

function source(piece: Piece, code: boolean): string {
  if (piece.kind !== 'command') return pieceSource(piece);
  const typed = typedCommand(piece.command, '/reel');
  return code ? `\`${typed}\`` : typed;
}

/** `code`: as inline code (card markdown); otherwise as words (titles, labels, hints). */
export function commandsAsTyped(text: string, code = true): string {
  if (!text.includes('⟦/')) return text;
  const { text: held, pieces } = shield(text);
  return restore(held, pieces, (piece) => source(piece, code));
}

/** Keys whose text is shown as words, not card markdown (titles, labels, hints). */
const WORDS = new Set(['title', 'label', 'hint', 'placeholder', 'submitLabel', 'description']);

/**
 * A response or card with every command token written as typed in Slack (deeply: fields, sections, forms,
 * confirmations), as a member reads it there. Form state and control values never hold tokens.
 */
export function asTyped<T>(value: T, key = ''): T {
  if (typeof value === 'string') return commandsAsTyped(value, !WORDS.has(key)) as T;
  if (Array.isArray(value)) return value.map((v) => asTyped(v, key)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, asTyped(v, k)])) as T;
  }
  return value;
}
