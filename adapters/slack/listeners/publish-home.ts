import type { webApi } from '@slack/bolt';
import type { Card } from '../../../src/core/cards.js';
import type { RequestInfo } from '../../../src/core/context.js';
import { homeCards } from '../../../src/core/home.js';
import { refusedBlocks } from '../errors.js';
import { homeView, textOnlyHomeView } from '../home.js';
import type { ListenerContext } from './context.js';

export interface HomeTarget {
  client: webApi.WebClient;
  req: RequestInfo;
  /** Whose App Home. */
  user: string;
  /** The answer to a click made in the Home, shown at its top. */
  notice?: Card | undefined;
}

/** Publishes `user`'s App Home (led by `notice`, the answer to a click made there); false if it failed. */
export async function publishHome(ctx: ListenerContext, target: HomeTarget): Promise<boolean> {
  const { client, req, user, notice } = target;
  try {
    const cards = await homeCards(ctx.bot, ctx.store, req);
    // As with cards in channels: while Slack refuses the blocks, again without images, then as text.
    const views = [
      () => homeView(cards, notice),
      () => homeView(cards, notice, { images: false }),
      () => textOnlyHomeView(cards, notice),
    ];
    for (const [i, view] of views.entries()) {
      try {
        await client.views.publish({ user_id: user, view: view() });
        return true;
      } catch (error) {
        if (i === views.length - 1 || !refusedBlocks(error)) throw error;
        ctx.log.error({ user: req.user, step: i }, 'Slack refused the App Home blocks; sending them simpler');
      }
    }
    return true;
  } catch (error) {
    ctx.log.error({ err: error, user: req.user }, 'could not publish the App Home');
    return false;
  }
}
