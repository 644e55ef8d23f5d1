/**
 * IANA time zone validation with `Intl` (no zone database of our own): `europe/paris` is accepted and
 * returned in its canonical spelling; offsets and abbreviations (`+02:00`, `CET`) are refused because
 * they do not follow daylight-saving changes.
 */
const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

export function normalizeTimeZone(input: string): string | undefined {
  const value = input.trim();
  if (!ZONE_SHAPE.test(value)) return undefined;
  if (!value.includes('/') && !/^(UTC|GMT|Etc\/UTC)$/i.test(value)) return undefined;
  try {
    const canonical = new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
    const known = supportedZones();
    // Keep the spelling Intl lists (`america/new_york` → `America/New_York`), else the user's own when it is
    // cased: ICU's canonical form can be an older alias (Asia/Kolkata → Asia/Calcutta).
    return known.get(value.toLowerCase()) ?? (/[A-Z]/.test(value) ? value : canonical);
  } catch {
    return undefined;
  }
}

let zones: Map<string, string> | undefined;
function supportedZones(): Map<string, string> {
  zones ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  return zones;
}

/**
 * Thrown by `CommandContext.timeZoneToRead` where the platform does not share members' zones (Discord) and
 * the member has none (nor the channel): the dispatcher answers with the time-zone question instead.
 */
export class TimeZoneNeeded extends Error {
  override readonly name = 'TimeZoneNeeded';
  constructor() {
    super('time zone needed');
  }
}
