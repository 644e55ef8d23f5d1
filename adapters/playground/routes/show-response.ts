import type { Response as CoreResponse } from '../../../src/core/index.js';
import type { ChatRoom } from '../chat-room.js';
import { renderForm } from '../html/form.js';
import type { ClientReply } from '../routes.js';
import { plainText } from '../text.js';

/** Shows the core's response; `messageId` is the message an `update` replaces. */
export function showResponse(
  room: ChatRoom,
  response: CoreResponse,
  at: { user: string; channel: string; messageId?: string; cardIndex?: number | undefined },
): ClientReply {
  switch (response.kind) {
    case 'message': {
      const visibleTo = response.visibility === 'ephemeral' ? at.user : undefined;
      const message = room.postCard(at.channel, response.card, {
        ...(visibleTo ? { visibleTo } : {}),
        ...(response.more ? { more: response.more } : {}),
      });
      return { ok: true, kind: 'message', messages: [room.view(message)] };
    }
    case 'update': {
      const target = at.messageId ? room.log.get(at.channel, at.messageId) : undefined;
      // Only a message this user can see is replaced; otherwise the new card is shown to them alone.
      const visible = target && (target.visibleTo === undefined || target.visibleTo === at.user);
      const replace = (id: string) =>
        at.cardIndex === undefined
          ? room.replaceCard(at.channel, id, response.card)
          : room.replaceInPanel({ channel: at.channel, id, index: at.cardIndex }, response.card);
      const message =
        (visible && at.messageId && replace(at.messageId)) ||
        room.postCard(at.channel, response.card, { visibleTo: at.user });
      return { ok: true, kind: 'update', messages: [room.view(message)] };
    }
    case 'form':
      return { ok: true, kind: 'form', form: { id: response.form.id, html: renderForm(response.form) } };
    case 'form-errors':
      // Shown as text next to each input: card markdown read as plain words (escapes undone).
      return {
        ok: true,
        kind: 'form-errors',
        errors: Object.fromEntries(
          Object.entries(response.errors).map(([id, text]) => [id, plainText(text)]),
        ),
      };
    case 'none':
      return { ok: true, kind: 'none' };
  }
}
