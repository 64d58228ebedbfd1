import { describe, expect, it } from 'vitest';
import {
  dayHeader,
  defaultEndMinutes,
  instantRange,
  minutesAtOffset,
  monthGrid,
  nowLine,
  rangeTitle,
  spanInDay,
  stepAnchor,
  titleDays,
  todayIn,
  visibleDays,
} from './agenda-calendar.ts';

describe('click offset → time of day', () => {
  it('reads the click over 24 hours at 1 px per minute, down to the quarter hour', () => {
    expect(minutesAtOffset(0, 1440)).toBe(0);
    expect(minutesAtOffset(600, 1440)).toBe(600);
    expect(minutesAtOffset(614, 1440)).toBe(600);
    expect(minutesAtOffset(615, 1440)).toBe(615);
    expect(minutesAtOffset(14 * 60 + 40, 1440)).toBe(14 * 60 + 30);
  });

  it('scales with the lane height and stays inside the day', () => {
    expect(minutesAtOffset(360, 720)).toBe(720);
    expect(minutesAtOffset(-5, 1440)).toBe(0);
    expect(minutesAtOffset(1440, 1440)).toBe(1425);
    expect(minutesAtOffset(100, 0)).toBe(0);
  });

  it('lasts one hour by default without running past midnight', () => {
    expect(defaultEndMinutes(600, 60)).toBe(660);
    expect(defaultEndMinutes(23 * 60 + 30, 60)).toBe(1439);
  });
});

describe('month grid', () => {
  it('has 42 cells starting on the Monday on or before the 1st', () => {
    const march = monthGrid('2030-03-17');
    expect(march).toHaveLength(42);
    // 1 March 2030 is a Friday.
    expect(march[0]).toBe('2030-02-25');
    expect(march[4]).toBe('2030-03-01');
    expect(march.at(-1)).toBe('2030-04-07');
  });

  it('starts on the 1st itself when the month begins on a Monday, and spans six weeks even for February', () => {
    expect(monthGrid('2030-04-30')[0]).toBe('2030-04-01');
    const february = monthGrid('2027-02-10');
    expect(february[0]).toBe('2027-02-01');
    expect(february).toHaveLength(42);
    expect(february.at(-1)).toBe('2027-03-14');
  });
});

describe('views and navigation', () => {
  it('shows one day, Monday to Sunday, or the month grid', () => {
    expect(visibleDays('day', '2030-03-06')).toEqual(['2030-03-06']);
    expect(visibleDays('week', '2030-03-06')).toEqual(['2030-03-04', '2030-03-05', '2030-03-06', '2030-03-07', '2030-03-08', '2030-03-09', '2030-03-10']);
    expect(visibleDays('week', '2030-03-10')[0]).toBe('2030-03-04');
    expect(visibleDays('month', '2030-03-06')).toEqual(monthGrid('2030-03-06'));
  });

  it('steps a day, a week or a month, from 31 January to February', () => {
    expect(stepAnchor('day', '2030-03-01', -1)).toBe('2030-02-28');
    expect(stepAnchor('week', '2030-12-30', 1)).toBe('2031-01-06');
    expect(stepAnchor('month', '2030-01-31', 1)).toBe('2030-02-01');
    expect(stepAnchor('month', '2030-01-15', -1)).toBe('2029-12-01');
  });

  it('covers the month itself, not the grid, in the title and the export', () => {
    expect(titleDays('month', '2030-02-14')).toEqual({ first: '2030-02-01', last: '2030-02-28' });
    expect(titleDays('week', '2030-03-06')).toEqual({ first: '2030-03-04', last: '2030-03-10' });
  });

  it("asks the server from the first midnight to the midnight after the last day, in the tenant's zone", () => {
    expect(instantRange({ first: '2030-03-04', last: '2030-03-10' }, 'America/Bogota')).toEqual({
      start: '2030-03-04T05:00:00.000Z',
      end: '2030-03-11T05:00:00.000Z',
    });
    // Madrid moves to summer time on 31 March 2030.
    expect(instantRange({ first: '2030-03-01', last: '2030-03-31' }, 'Europe/Madrid')).toEqual({
      start: '2030-02-28T23:00:00.000Z',
      end: '2030-03-31T22:00:00.000Z',
    });
  });
});

describe('range titles', () => {
  it('names the day, the week and the month in Spanish', () => {
    expect(rangeTitle('day', '2030-03-04')).toBe('Lunes, 4 de marzo de 2030');
    expect(rangeTitle('week', '2030-03-06')).toBe('4 – 10 de marzo de 2030');
    expect(rangeTitle('week', '2030-02-27')).toBe('25 de febrero – 3 de marzo de 2030');
    expect(rangeTitle('week', '2030-12-31')).toBe('30 de diciembre de 2030 – 5 de enero de 2031');
    expect(rangeTitle('month', '2030-03-17')).toBe('Marzo de 2030');
  });

  it('heads day columns with Lun…Dom and the day of the month', () => {
    expect(visibleDays('week', '2030-03-06').map(dayHeader)).toEqual(['Lun 4', 'Mar 5', 'Mié 6', 'Jue 7', 'Vie 8', 'Sáb 9', 'Dom 10']);
  });
});

describe('positions in a day lane', () => {
  const zone = 'America/Bogota';

  it('puts a span at its minutes from midnight with its length as height', () => {
    expect(spanInDay({ startTime: '2030-03-04T15:00:00.000Z', endTime: '2030-03-04T16:30:00.000Z' }, '2030-03-04', zone)).toEqual({ top: 600, height: 90 });
    expect(spanInDay({ startTime: '2030-03-04T15:00:00.000Z', endTime: '2030-03-04T16:30:00.000Z' }, '2030-03-05', zone)).toBeNull();
  });

  it('cuts a span that crosses midnight at the edge of each day', () => {
    const late = { startTime: '2030-03-05T04:00:00.000Z', endTime: '2030-03-05T06:00:00.000Z' };
    expect(spanInDay(late, '2030-03-04', zone)).toEqual({ top: 23 * 60, height: 60 });
    expect(spanInDay(late, '2030-03-05', zone)).toEqual({ top: 0, height: 60 });
  });

  it("draws the current-time line only on today, at the minute of the tenant's clock", () => {
    const now = new Date('2030-03-04T19:45:00Z');
    expect(todayIn(zone, now)).toBe('2030-03-04');
    expect(nowLine(visibleDays('week', '2030-03-04'), zone, now)).toEqual({ date: '2030-03-04', minutes: 14 * 60 + 45 });
    expect(nowLine(['2030-03-05'], zone, now)).toBeNull();
    // The same instant is 20:45 in Madrid.
    expect(nowLine(['2030-03-04'], 'Europe/Madrid', now)).toEqual({ date: '2030-03-04', minutes: 20 * 60 + 45 });
  });
});
