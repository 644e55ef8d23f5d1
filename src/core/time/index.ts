/** Time in the caller's zone: parsing natural language, formatting for chat, zone arithmetic. */
export { formatBoth, formatDateTime, formatDay, formatTime } from './format.js';
export { parseDate, parseDayPhrase, parseWhen } from './parse.js';
export { type DayRange, dayRange, parseRange, parseRangeOptions } from './range.js';
export {
  addDays,
  dayKey,
  daysBetween,
  fromWallClock,
  isCalendarDate,
  isValidZone,
  offsetMinutes,
  startOfDay,
} from './zone.js';
