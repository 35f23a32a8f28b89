// Timings and limits of the UI primitives (SPEC sections 4 and 9), in one place so the
// primitives and their tests agree.

/** How long a Button shows its success state after an async action resolves. */
export const SUCCESS_FLASH_MS = 1250;
/** How long a Button shows its failure state after an async action rejects. */
export const FAILURE_FLASH_MS = 1875;
/** A spinner appears only when loading lasts longer than this, so fast loads don't flicker. */
export const SPINNER_DELAY_MS = 300;
/** Once shown, a spinner stays at least this long, for the same reason. */
export const SPINNER_MIN_VISIBLE_MS = 500;
/** Dates older than this many days are shown as absolute dates instead of "3 hours ago". */
export const ABSOLUTE_DATE_AFTER_DAYS = 30;
/** Ids longer than this are shortened for display. */
export const SHORT_ID_MAX_LENGTH = 12;
/** How many characters a shortened id keeps at each end. */
export const SHORT_ID_KEEP = 6;
/** How long a toast stays before it dismisses itself. */
export const TOAST_DURATION_MS = 5000;
