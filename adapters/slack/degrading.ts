import type { Card, Logger } from '../../src/core/index.js';
import { platformErrorCode, refusedBlocks } from './errors.js';
import { cardToMessage, fallbackText, type SlackMessage, withoutImages } from './render.js';

/** What is being sent where, for the log line when Slack refuses the blocks. */
export interface DegradingSend {
  log: Logger;
  what: string;
  channel: string;
}

/**
 * Sends the card as blocks; while Slack refuses the blocks (`invalid_blocks`: an image it cannot fetch, an
 * expired signed URL), again without images, then as text alone — so a card never freezes on one bad image.
 */
export async function sendDegrading<T>(
  card: Card,
  where: DegradingSend,
  send: (message: { text: string; blocks?: SlackMessage['blocks'] }) => Promise<T>,
): Promise<T> {
  const steps = [
    cardToMessage(card),
    cardToMessage(withoutImages(card)),
    { text: fallbackText(card), blocks: [] },
  ];
  for (let i = 0; ; i++) {
    try {
      return await send(steps[i] as SlackMessage);
    } catch (error) {
      if (i === steps.length - 1 || !refusedBlocks(error)) throw error;
      where.log.error(
        { slackError: platformErrorCode(error), channel: where.channel, what: where.what },
        i === 0
          ? 'Slack refused the card blocks; trying without images'
          : 'Slack refused the card blocks again; sending text only',
      );
    }
  }
}
