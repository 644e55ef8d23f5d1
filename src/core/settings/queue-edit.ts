/**
 * `settings slots <platform> …` and `settings daily-cap <platform> …` applied to a queue (the workspace's, or a
 * channel's own with `--here`), and their words for the answer and the audit trail. Slots are kept with the zone
 * they were read in, so they stay the same wall-clock times whoever reads them later.
 */
import { PLATFORM_NAMES } from '../platforms/names.js';
import type { QueueSettings } from '../ports/index.js';
import { describeSlots } from '../publishing/slots.js';
import { type CardText, command, joinText, literal, md } from '../text/text.js';
import type { QueueChange } from './setting-change.js';

export function applyQueueChange(queue: QueueSettings, c: QueueChange, zone: string): QueueSettings {
  const next = structuredClone(queue);
  if (c.key === 'slots') {
    const slots = { ...next.slots };
    if (c.slots) slots[c.platform] = { ...c.slots, zone };
    else delete slots[c.platform];
    next.slots = slots;
  } else {
    const caps = { ...next.dailyCaps };
    if (c.cap !== undefined) caps[c.platform] = c.cap;
    else delete caps[c.platform];
    next.dailyCaps = caps;
  }
  return next;
}

/** The platform's value in plain words for the audit trail: `Weekdays at 09:00 (Europe/Paris)`, `2`, `off`. */
export function queueValue(queue: QueueSettings, c: QueueChange): string {
  if (c.key === 'slots') {
    const rule = queue.slots?.[c.platform];
    return rule ? describeSlots(rule) : 'off';
  }
  return String(queue.dailyCaps?.[c.platform] ?? 'off');
}

/** What the change now means, for the answer. */
export function queueSummary(queue: QueueSettings, c: QueueChange): CardText {
  const name = literal(PLATFORM_NAMES[c.platform] ?? c.platform);
  if (c.key === 'slots') {
    const rule = queue.slots?.[c.platform];
    return rule
      ? md`${name} queue slots: **${literal(describeSlots(rule))}**. ${command('schedule', ['last', c.platform, 'next'])} takes the next free one; ${command('slots')} shows the queue.`
      : md`${name} has **no queue slots** now.`;
  }
  const cap = queue.dailyCaps?.[c.platform];
  return cap !== undefined
    ? md`${name}: at most **${cap} post${cap === 1 ? md`` : md`s`} a day** per account; a schedule over it is warned before it is sent.`
    : md`${name} has **no daily cap** now.`;
}

/** The settings card's queue row: `YouTube: Weekdays at 09:00, 17:00 (Europe/Paris) · at most 2 a day`. */
export function queueLines(queue: Required<QueueSettings>): CardText[] {
  const platforms = [...new Set([...Object.keys(queue.slots), ...Object.keys(queue.dailyCaps)])];
  return platforms.map((p) => {
    const rule = queue.slots[p];
    const cap = queue.dailyCaps[p];
    const parts = [rule ? literal(describeSlots(rule)) : md`no slots`];
    if (cap !== undefined) parts.push(md`at most ${cap} a day`);
    return md`${literal(PLATFORM_NAMES[p] ?? p)}: ${joinText(parts, ' · ')}`;
  });
}
