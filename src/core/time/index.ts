/** Time in the caller's zone: parsing natural language, formatting for chat, zone arithmetic. */
export { formatBoth, formatDateTime, formatDay, formatTime } from './format.js';
export { parseDate, parseWhen } from './parse.js';
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
