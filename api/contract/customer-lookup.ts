import * as v from 'valibot';
import { gjsonPathProblem } from './logic/gjson';
import { PhoneNumberSchema } from './sms';
import { presentText, requiredText, text, urlSchema } from './common';
import { requiredSecret } from './secret-text';

export const MAX_LOOKUP_HEADERS = 3;
export const LOOKUP_URL_PREFIX = 'https://';

const required = (message: string, max = 500) => requiredText(message, max);

/** A GJSON path the evaluator supports; the message says what is not supported. */
const gjsonPath = (message: string) =>
  v.pipe(
    required(message),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = gjsonPathProblem(dataset.value);
      if (problem) addIssue({ message: problem });
    }),
  );

export const LookupUrlSchema = urlSchema({
  required: 'URL must be a valid URL.',
  invalid: 'URL must be a valid URL.',
  https: `URL must start with ${LOOKUP_URL_PREFIX}`,
});

export const LookupHeaderSchema = v.object({
  key: v.pipe(
    required('Header name is required', 100),
    v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Header name may only contain letters, digits and - _ .'),
  ),
  /**
   * Absent means "keep the value saved for this header name" (values are never sent back);
   * a new header needs one.
   */
  value: v.optional(requiredSecret('Value is required', 4000)),
});
export type LookupHeader = v.InferOutput<typeof LookupHeaderSchema>;

export const LOOKUP_METHODS = ['GET', 'POST'] as const;

export const CustomerLookupSettingsSchema = v.object({
  url: LookupUrlSchema,
  method: v.pipe(presentText('Method must be GET or POST'), v.picklist(LOOKUP_METHODS, 'Method must be GET or POST')),
  headers: v.optional(
    v.pipe(v.array(LookupHeaderSchema), v.maxLength(MAX_LOOKUP_HEADERS, `You can add up to ${MAX_LOOKUP_HEADERS} headers`)),
    [],
  ),
  customerPath: gjsonPath('Customers array path is required'),
  customerId: gjsonPath('Customer ID path is required'),
  titleTemplate: required('Title template is required'),
  descriptionTemplate: required('Description template is required'),
});
export type CustomerLookupSettingsInput = v.InferInput<typeof CustomerLookupSettingsSchema>;
export type CustomerLookupSettings = v.InferOutput<typeof CustomerLookupSettingsSchema>;

/** True when a save carries no values at all: saving empty values removes the settings. */
export function isEmptyLookupBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  const blank = (x: unknown) => x === undefined || x === null || (typeof x === 'string' && x.trim() === '');
  const headers = b.headers;
  return (
    ['url', 'customerPath', 'customerId', 'titleTemplate', 'descriptionTemplate'].every((k) => blank(b[k])) &&
    (headers === undefined || (Array.isArray(headers) && headers.every((h) => blank(h?.key) && blank(h?.value))))
  );
}

/**
 * A path or template the test may run without: blank (or absent) means "not chosen yet", so an
 * admin can fetch the sample answer first and pick the paths from it; a typed one is checked as
 * the settings check it.
 */
const notYetChosen = (max = 500) =>
  v.optional(
    v.pipe(
      text(),
      v.trim(),
      v.maxLength(max, 'This value is too long'),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed || dataset.value === '') return;
        const problem = gjsonPathProblem(dataset.value);
        if (problem) addIssue({ message: problem });
      }),
    ),
    '',
  );
const notYetWritten = () => v.optional(v.pipe(text(), v.trim(), v.maxLength(500, 'This value is too long')), '');

/** The fields a lookup needs besides the endpoint: without all of them Test answers the sample only. */
export const LOOKUP_MAPPING_FIELDS = ['customerPath', 'customerId', 'titleTemplate', 'descriptionTemplate'] as const;
export type LookupMappingField = (typeof LOOKUP_MAPPING_FIELDS)[number];

/**
 * POST /customer-lookup/test: the (unsaved) settings plus a phone number to look up. The paths
 * and templates may still be blank: the answer then carries the sample only.
 */
export const CustomerLookupTestBodySchema = v.object({
  ...CustomerLookupSettingsSchema.entries,
  customerPath: notYetChosen(),
  customerId: notYetChosen(),
  titleTemplate: notYetWritten(),
  descriptionTemplate: notYetWritten(),
  phoneNumber: PhoneNumberSchema,
});
export type CustomerLookupTestBody = v.InferInput<typeof CustomerLookupTestBodySchema>;
/** What the server holds after validation. */
export type CustomerLookupTestRequest = v.InferOutput<typeof CustomerLookupTestBodySchema>;

/** What GET shows: header names only. */
export const CustomerLookupViewSchema = v.object({
  url: v.string(),
  method: v.picklist(LOOKUP_METHODS),
  headerKeys: v.array(v.string()),
  customerPath: v.string(),
  customerId: v.string(),
  titleTemplate: v.string(),
  descriptionTemplate: v.string(),
});
export type CustomerLookupView = v.InferOutput<typeof CustomerLookupViewSchema>;

export const CustomerLookupAnswerSchema = v.object({ settings: v.nullable(CustomerLookupViewSchema) });
export type CustomerLookupAnswer = v.InferOutput<typeof CustomerLookupAnswerSchema>;

export const LookupCustomerSchema = v.object({ id: v.string(), title: v.string(), description: v.string() });
export type LookupCustomer = v.InferOutput<typeof LookupCustomerSchema>;
/**
 * `customers` (SPEC) when every path and template is given; `sample` is the endpoint's answer as
 * it sent it (raw JSON text, so long ids keep every digit), for picking paths; `missing` names the
 * fields still blank (then there is no `customers`).
 */
export const CustomerLookupTestAnswerSchema = v.object({
  customers: v.optional(v.array(LookupCustomerSchema)),
  sample: v.string(),
  missing: v.array(v.picklist(LOOKUP_MAPPING_FIELDS)),
});
export type CustomerLookupTestAnswer = v.InferOutput<typeof CustomerLookupTestAnswerSchema>;

/** Most customers one lookup answers with. */
export const MAX_LOOKUP_CUSTOMERS = 50;
