import * as v from 'valibot';
import { gjsonPathProblem } from '../integrations/gjson';
import { PhoneNumberSchema } from './sms';
import { presentText, requiredText, urlSchema } from './common';
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

export const LookupUrlSchema = urlSchema({ required: 'URL must be a valid URL.', invalid: 'URL must be a valid URL.', https: `URL must start with ${LOOKUP_URL_PREFIX}` });

export const LookupHeaderSchema = v.object({
  key: v.pipe(required('Header name is required', 100), v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'Header name may only contain letters, digits and - _ .')),
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
  headers: v.optional(v.pipe(v.array(LookupHeaderSchema), v.maxLength(MAX_LOOKUP_HEADERS, `You can add up to ${MAX_LOOKUP_HEADERS} headers`)), []),
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

/** POST /customer-lookup/test: the (unsaved) settings plus a phone number to look up. */
export const CustomerLookupTestBodySchema = v.object({
  ...CustomerLookupSettingsSchema.entries,
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
export const CustomerLookupTestAnswerSchema = v.object({ customers: v.array(LookupCustomerSchema) });
export type CustomerLookupTestAnswer = v.InferOutput<typeof CustomerLookupTestAnswerSchema>;

/** Most customers one lookup answers with. */
export const MAX_LOOKUP_CUSTOMERS = 50;
