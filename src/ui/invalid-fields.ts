export type FieldErrors = Record<string, string>;

/**
 * A form's answer that some fields are wrong. The form shows each message on its field and moves
 * focus to the first (`useFormErrors`); a Button whose action rejects with it keeps its label
 * instead of flashing a failure, because nothing failed that the fields don't already say.
 */
export class InvalidFields extends Error {
  constructor(readonly fields: FieldErrors) {
    super('Some fields need attention');
    this.name = 'InvalidFields';
  }
}
