import type { Card, Logger } from '../../src/core/index.js';
import {
  type BlockSupport,
  CLASSIC,
  NATIVE_BLOCKS,
  type NativeBlock,
  refusedNativeTypes,
} from './block-support.js';
import { platformErrorCode, refusedBlocks } from './errors.js';
import {
  type BlockOptions,
  cardToMessage,
  fallbackText,
  type SlackMessage,
  withoutImages,
} from './render.js';

/** What is being sent where, for the log line when Slack refuses the blocks. */
export interface DegradingSend {
  log: Logger;
  what: string;
  channel: string;
  /**
   * Which newest blocks the workspace takes, remembered across sends; without it the card goes in the
   * classic blocks alone.
   */
  blocks?: { support: BlockSupport; workspace: string };
  /** Rendering options other than `native` (a view's budget, no actions). */
  render?: Omit<BlockOptions, 'native'>;
}

/** The newest blocks to try in `workspace`: all but those it refused lately. */
export function nativeFor(where: Pick<DegradingSend, 'blocks'>): ReadonlySet<NativeBlock> {
  if (!where.blocks) return CLASSIC;
  const refused = where.blocks.support.refusedIn(where.blocks.workspace);
  return new Set(NATIVE_BLOCKS.filter((type) => !refused.has(type)));
}

/**
 * The renderings to try in turn, each simpler than the last, built only when reached (the first usually goes
 * through): the newest blocks the workspace takes, the classic blocks, the classic blocks without images, text.
 */
function steps(card: Card, where: DegradingSend): (() => SlackMessage)[] {
  return [
    () => cardToMessage(card, { ...where.render, native: nativeFor(where) }),
    () => cardToMessage(card, { ...where.render, native: CLASSIC }),
    () => cardToMessage(withoutImages(card), { ...where.render, native: CLASSIC }),
    () => ({ text: fallbackText(card), blocks: [] }),
  ];
}

/**
 * Sends the card in the newest blocks the workspace takes; while Slack refuses the blocks (`invalid_blocks`:
 * a block type not enabled there, an image it cannot fetch, an expired signed URL), again in the classic
 * blocks, then without images, then as text alone — so a card never freezes on one bad block. A refusal of
 * newest blocks is remembered for the workspace (block-support.ts), so the next card goes classic at once.
 */
export async function sendDegrading<T>(
  card: Card,
  where: DegradingSend,
  send: (message: { text: string; blocks?: SlackMessage['blocks'] }) => Promise<T>,
): Promise<T> {
  const tries = steps(card, where);
  const sent: string[] = [];
  for (let i = 0; ; i++) {
    const message = (tries[i] as () => SlackMessage)();
    // A step rendering what was already refused is skipped (a card without native blocks or images).
    const key = JSON.stringify(message);
    if (sent.includes(key)) continue;
    sent.push(key);
    try {
      return await send(message);
    } catch (error) {
      if (i === tries.length - 1 || !refusedBlocks(error)) throw error;
      const refused = refusedNativeTypes(error, message.blocks);
      if (where.blocks && refused.size > 0) where.blocks.support.refuse(where.blocks.workspace, refused);
      where.log.error(
        {
          slackError: platformErrorCode(error),
          channel: where.channel,
          what: where.what,
          refused: [...refused],
        },
        i === tries.length - 2
          ? 'Slack refused the card blocks again; sending text only'
          : 'Slack refused the card blocks; trying simpler ones',
      );
    }
  }
}
