/**
 * Small display helpers shared by the account commands: dates in the caller's zone, signed amounts,
 * counts. Numbers are shown plainly (DESIGN §8: a balance of 340 reads "340").
 */

/** One formatter per zone: building an `Intl.DateTimeFormat` costs ~0.1 ms, far more than using one. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    // Zones are validated before they get here, so the map stays as small as the zones in use.
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** `Jan 15, 14:30 CET` in `zone`; an unreadable timestamp is shown as given. */
export function formatDateTime(at: string | number, zone: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  const parts = formatterFor(zone).formatToParts(date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('month')} ${get('day')} ${get('year')}, ${get('hour')}:${get('minute')} ${get('timeZoneName')}`;
}

/** Credits with an explicit sign: `+100`, `-20` (ASCII, as typed and as the API says it: DESIGN §8). */
export const signed = (n: number): string => (n > 0 ? `+${n}` : String(n));

/** `1 video`, `3 videos`. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A count shown plainly, as the API gave it (DESIGN §8: 12000 reads "12000", no separators). */
export const count = (n: number): string => String(n);

/** Cuts a line for a card, keeping it readable. */
export const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;
