/**
 * IMF-fixdate, the one form of HTTP date a sender generates (RFC 9110, section 5.6.7):
 * `Sun, 06 Nov 1994 08:49:37 GMT` - a day name, two-digit day, month name, four-digit year, a
 * 24-hour time with seconds (60 for a leap second), always GMT, case-sensitive.
 */
const IMF_FIXDATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), ([0-9]{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) ([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) GMT$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The last value judged and its verdict: a server's Date changes once a second, its answers come by the thousand. */
let last: { readonly value: string; readonly problem: string | undefined } | undefined;

/** Why `value` is not an IMF-fixdate, or undefined when it is one. */
export function imfFixdateProblem(value: string): string | undefined {
  if (last?.value !== value) last = { value, problem: problemOf(value) };
  return last.problem;
}

function problemOf(value: string): string | undefined {
  const match = IMF_FIXDATE.exec(value);
  if (!match) return 'not the form day-name, DD Mon YYYY HH:MM:SS GMT';
  const [, dayName = '', day = '', month = '', year = '', hour = '', minute = '', second = ''] = match;
  const monthIndex = MONTHS.indexOf(month);
  const date = new Date(Date.UTC(Number(year), monthIndex, Number(day)));
  if (date.getUTCDate() !== Number(day) || date.getUTCMonth() !== monthIndex) return `${day} ${month} ${year} is not a day of the calendar`;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 60) return `${hour}:${minute}:${second} is not a time of day`;
  // day-name is the day of the week of the date (RFC 5322, section 3.3, whose format this is).
  if (DAYS[date.getUTCDay()] !== dayName) return `${day} ${month} ${year} is a ${DAYS[date.getUTCDay()] ?? ''}, not a ${dayName}`;
  return undefined;
}
