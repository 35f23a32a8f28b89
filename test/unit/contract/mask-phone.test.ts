import { describe, expect, it } from 'vitest';
import { maskPhone } from '../../../api/contract/platform';

describe('maskPhone', () => {
  it.each([
    ['+14155554567', '+1 •••• •• 4567'],
    ['+74951234567', '+7 •••• •• 4567'],
    ['+447700903456', '+44 •••• •• 3456'],
    ['+4915112345678', '+49 •••• •• 5678'],
    ['+8613812345678', '+86 •••• •• 5678'],
    ['+2348012345678', '+234 •••• •• 5678'],
    ['+353871234567', '+353 •••• •• 4567'],
    ['+97150123 4567', '+971 •••• •• 4567'],
    ['+8801712345678', '+880 •••• •• 5678'],
    ['+12425551234', '+1 •••• •• 1234'],
  ])('shows %s as %s', (phone, masked) => {
    expect(maskPhone(phone)).toBe(masked);
  });

  it('hides every digit after the country code of a number too short to keep the last four', () => {
    expect(maskPhone('+44123')).toBe('+44 •••');
  });

  it('answers null for no number', () => {
    expect(maskPhone(null)).toBeNull();
  });
});
