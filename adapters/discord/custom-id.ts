/**
 * `custom_id`s of buttons, selects and modals (≤100 characters). A click carries the core action and the ids
 * it acts on (DESIGN §8), so it is self-contained and survives restarts:
 *
 * - `r|<action>|<value>` run a core action (`r2|…`, `r3|…` when the same pair appears twice on one message,
 *   since Discord wants unique ids per message);
 * - `c|<action>|<value>` a destructive action: the first click asks "are you sure?";
 * - `h|<key>` an action too long for 100 characters, kept in the store (memory.ts);
 * - `o|<key>` open a form kept in the store (after a deferral, or to fix errors); `o|<key>|<n>` its page n (from 0)
 *   when it is shown in pages;
 * - `x|<n>` dismiss a confirmation;
 * - `m|<key>|<formId>|<state>` a modal (`m|<key>` when its state is too long to carry);
 * - `p|<key>|<n>/<N>` page n (from 0) of a form shown in N pages, kept in the store with the values of the
 *   pages before.
 */
import { DISCORD } from './limits.js';

export type CustomId =
  | { kind: 'action'; action: string; value: string }
  | { kind: 'confirm'; action: string; value: string }
  | { kind: 'stashed'; key: string }
  | { kind: 'open-form'; key: string; page?: number }
  | { kind: 'dismiss' }
  | { kind: 'modal'; key: string; formId?: string; state?: string; page?: number; pages?: number };

const PREFIX = {
  action: 'r',
  confirm: 'c',
  stashed: 'h',
  'open-form': 'o',
  dismiss: 'x',
  modal: 'm',
  page: 'p',
} as const;

/**
 * The id of a control running `action` with `value`; undefined when it cannot fit (the caller stashes it).
 * `taken` holds the ids already used on the message.
 */
export function actionId(
  { kind, action, value }: { kind: 'action' | 'confirm'; action: string; value: string },
  taken: Set<string>,
): string | undefined {
  for (let n = 1; n < 10; n++) {
    const id = `${PREFIX[kind]}${n === 1 ? '' : n}|${action}|${value}`;
    if (id.length > DISCORD.customId) return undefined;
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
  return undefined;
}

export const stashedId = (key: string): string => `${PREFIX.stashed}|${key}`;
export const openFormId = (key: string, page = 0): string =>
  page > 0 ? `${PREFIX['open-form']}|${key}|${page}` : `${PREFIX['open-form']}|${key}`;
export const pageModalId = (key: string, at: { page: number; pages: number }): string =>
  `${PREFIX.page}|${key}|${at.page}/${at.pages}`;

const pageNumber = (text: string | undefined): number | undefined =>
  text !== undefined && /^\d{1,2}$/.test(text) ? Number(text) : undefined;
export const dismissId = (n = 1): string => `${PREFIX.dismiss}|${n}`;

/** `m|key|formId|state` when it fits, else `m|key` (the stash then holds form id and state). */
export function modalId(key: string, formId: string, state: string): string {
  const full = `${PREFIX.modal}|${key}|${formId}|${state}`;
  return full.length <= DISCORD.customId ? full : `${PREFIX.modal}|${key}`;
}

export function parseCustomId(id: string): CustomId | undefined {
  const match = /^([a-z])(\d*)\|(.*)$/s.exec(id);
  if (!match) return undefined;
  const [, prefix, , rest = ''] = match;
  const bar = rest.indexOf('|');
  const head = bar < 0 ? rest : rest.slice(0, bar);
  const tail = bar < 0 ? undefined : rest.slice(bar + 1);
  switch (prefix) {
    case PREFIX.action:
    case PREFIX.confirm:
      if (!head || tail === undefined) return undefined;
      return { kind: prefix === PREFIX.action ? 'action' : 'confirm', action: head, value: tail };
    case PREFIX.stashed:
      return rest ? { kind: 'stashed', key: rest } : undefined;
    case PREFIX['open-form']: {
      if (!head) return undefined;
      if (tail === undefined) return { kind: 'open-form', key: head };
      const page = pageNumber(tail);
      return page === undefined ? undefined : { kind: 'open-form', key: head, page };
    }
    case PREFIX.page: {
      const [page, pages] = (tail ?? '').split('/').map(pageNumber);
      return head && page !== undefined && pages !== undefined && page < pages
        ? { kind: 'modal', key: head, page, pages }
        : undefined;
    }
    case PREFIX.dismiss:
      return { kind: 'dismiss' };
    case PREFIX.modal: {
      if (!head) return undefined;
      if (tail === undefined) return { kind: 'modal', key: head };
      const bar2 = tail.indexOf('|');
      if (bar2 < 0) return undefined;
      return { kind: 'modal', key: head, formId: tail.slice(0, bar2), state: tail.slice(bar2 + 1) };
    }
    default:
      return undefined;
  }
}
