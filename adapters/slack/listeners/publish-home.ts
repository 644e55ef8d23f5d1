/**
 * Publishing a member's App Home (`views.publish`): when they open it, after a click made in it, and when the
 * outbox refreshes it (something it shows changed; `src/core/home/home-refresh.ts`). Clicks made in it that answer
 * in a conversation run in the member's DM with the app: the App Home's Messages tab, whose channel Slack
 * names in `app_home_opened` (remembered), else `conversations.open`.
 */
import type { webApi } from '@slack/bolt';
import type { Card, RequestInfo, UserAddress } from '../../../src/core/index.js';
import {
  conversationAddress,
  decodeAddress,
  homeCards,
  homeConversation,
  rememberHomeConversation,
  userAddress,
} from '../../../src/core/index.js';
import { refusedBlocks } from '../errors.js';
import { homeView, textOnlyHomeView } from '../home.js';
import { requestInfo } from '../inbound.js';
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
  try {
    await publishHomeOrThrow(ctx, target);
    return true;
  } catch (error) {
    ctx.log.error({ err: error, user: target.req.user }, 'could not publish the App Home');
    return false;
  }
}

/** Publishes the App Home; throws what Slack threw (the outbox retries a refresh). */
async function publishHomeOrThrow(ctx: ListenerContext, target: HomeTarget): Promise<void> {
  const { client, req, user, notice } = target;
  const cards = await homeCards(ctx.bot, ctx.store, { req });
  // As with cards in channels: while Slack refuses the blocks, again without images, then as text.
  const views = [
    () => homeView(cards, notice),
    () => homeView(cards, notice, { images: false }),
    () => textOnlyHomeView(cards, notice),
  ];
  for (const [i, view] of views.entries()) {
    try {
      await client.views.publish({ user_id: user, view: view() });
      return;
    } catch (error) {
      if (i === views.length - 1 || !refusedBlocks(error)) throw error;
      ctx.log.error({ user: req.user, step: i }, 'Slack refused the App Home blocks; sending them simpler');
    }
  }
}

/**
 * The outbox's refresh of `user`'s Home (something it shows changed): published again as the member would
 * see it on opening, in their DM's context. A member who never opened it (or whose workspace was forgotten)
 * has nothing to refresh. Throws when Slack fails, so the outbox retries.
 */
export async function refreshHome(
  ctx: ListenerContext,
  target: { client: webApi.WebClient; user: UserAddress },
): Promise<void> {
  const conversation = await homeConversation(ctx.store, target.user);
  if (!conversation) return;
  const { workspace: team, id: user } = decodeAddress(target.user);
  const req = await requestInfo(ctx, target.client, { team, user, channel: decodeAddress(conversation).id });
  await publishHomeOrThrow(ctx, { client: target.client, req, user });
}

/**
 * The member's DM channel with the app (`D…`): the one `app_home_opened` named, else opened now with
 * `conversations.open` (and remembered); the user id when Slack refuses (posting to it lands in the DM).
 */
export async function directMessageChannel(
  ctx: ListenerContext,
  member: { client: webApi.WebClient; team: string; user: string },
): Promise<string> {
  const address = userAddress('slack', member.team, member.user);
  const known = await homeConversation(ctx.store, address);
  if (known) return decodeAddress(known).id;
  try {
    const opened = await member.client.conversations.open({ users: member.user });
    const id = opened.channel?.id;
    if (!id) return member.user;
    await rememberHomeConversation(ctx.store, {
      user: address,
      conversation: conversationAddress('slack', member.team, id),
    });
    return id;
  } catch (error) {
    ctx.log.warn({ err: error, user: address }, 'conversations.open failed; answering to the user id');
    return member.user;
  }
}
