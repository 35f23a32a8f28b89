import { describe, expect, it } from 'vitest';
import { dayRange } from '../../api/watch-tower/series';

describe('Watch Tower day ranges', () => {
  it('the days up to the end of year 9999 end there instead of running on', () => {
    expect(dayRange('9999-12-30', '9999-12-31')).toEqual(['9999-12-30', '9999-12-31']);
  });

  it('a range far longer than any chart is refused rather than built', () => {
    expect(() => dayRange('0001-01-01', '9999-12-31')).toThrow(RangeError);
  });
});
