import * as v from 'valibot';
import { requiredText, text, urlScheme, urlSchema } from './common';
import { keptSecret, noControlCharacters, requiredSecret } from './secret-text';

// Storage settings: where the apps' files live (this database or the account's S3-compatible
// bucket) and how long each kind of content is kept. Shared by Identity Verification and
// Document Signature (their settings/storage pages show the same form).

export const STORAGE_BACKENDS = ['database', 's3'] as const;
export type StorageBackend = (typeof STORAGE_BACKENDS)[number];

/** Kinds of content with a retention period; each app's redaction job asks for its own kinds. */
export const RETENTION_KINDS = [
  {
    kind: 'idv.images',
    app: 'identity-verification',
    label: 'Identity Verification images',
    hint: 'Document photos and selfies.',
  },
  {
    kind: 'idv.data',
    app: 'identity-verification',
    label: 'Identity Verification extracted data',
    hint: 'Names, dates and document numbers read from the documents.',
  },
  {
    kind: 'document-signature.completed',
    app: 'document-signature',
    label: 'Completed signed documents',
    hint: 'Signed PDFs and their originals, once sealed.',
  },
] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number]['kind'];

export const RETENTION_MIN_DAYS = 1;
export const RETENTION_MAX_DAYS = 3650;
const RETENTION_MESSAGE = `Enter a number of days from ${RETENTION_MIN_DAYS} to ${RETENTION_MAX_DAYS}, or keep`;

/** Days to keep a kind of content; null keeps it until it is deleted. */
const retentionDays = v.optional(
  v.nullable(
    v.pipe(
      v.number(RETENTION_MESSAGE),
      v.integer(RETENTION_MESSAGE),
      v.minValue(RETENTION_MIN_DAYS, RETENTION_MESSAGE),
      v.maxValue(RETENTION_MAX_DAYS, RETENTION_MESSAGE),
    ),
  ),
  null,
);

export const RetentionSchema = v.object(
  Object.fromEntries(RETENTION_KINDS.map((k) => [k.kind, retentionDays])) as Record<RetentionKind, typeof retentionDays>,
);
export type Retention = Record<RetentionKind, number | null>;

// S3 bucket names (3-63 characters of lower-case letters, digits, dots and hyphens, starting and
// ending with a letter or digit); underscores too, which some S3-compatible servers accept.
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
// "us-east-1", and the free names S3-compatible servers use ("auto", "garage", "fr-par")
const REGION = /^[a-z0-9][a-z0-9_-]{0,62}$/i;

export const S3_SECRET_REQUIRED = 'Secret access key is required';
export const S3_SECRET_REENTER =
  'Enter the secret access key again: the stored one belongs to another endpoint, bucket or access key';

const endpoint = v.pipe(
  urlSchema(
    { required: 'Endpoint is required', invalid: 'Endpoint must be a URL such as https://s3.eu-west-1.amazonaws.com', https: '' },
    { allowHttp: true, max: 500 },
  ),
  v.check((s) => {
    if (urlScheme(s) === null) return true; // said above
    const u = new URL(s);
    return !u.username && !u.password && !u.search && !u.hash && (u.pathname === '/' || u.pathname === '');
  }, 'Endpoint must be only the server address, without a path, query or credentials'),
);

/**
 * The S3 fields. `secretStored`: the account has a secret saved, so a blank secret keeps it
 * (when endpoint, bucket and access key are unchanged; the server checks that).
 */
export const s3SettingsSchema = (secretStored: boolean) =>
  v.object({
    endpoint,
    region: v.optional(
      v.pipe(
        text('Region is required'),
        v.trim(),
        v.nonEmpty('Region is required'),
        v.maxLength(63, 'Region is too long'),
        v.regex(REGION, 'Region may only contain letters, digits, - and _'),
      ),
      'us-east-1',
    ),
    bucket: v.pipe(
      requiredText('Bucket is required', 63, 'Bucket names are at most 63 characters'),
      v.regex(BUCKET, 'Bucket names are 3 to 63 lower-case letters, digits, dots and hyphens'),
    ),
    accessKeyId: v.pipe(
      requiredSecret('Access key ID is required', 128, 'Access key ID is at most 128 characters'),
      noControlCharacters(),
    ),
    secretAccessKey: secretStored ? keptSecret(S3_SECRET_REQUIRED, 256) : requiredSecret(S3_SECRET_REQUIRED, 256),
    /** bucket in the path (https://host/bucket/key) rather than the host name; most S3-compatible servers want it */
    pathStyle: v.optional(v.boolean('Path-style must be true or false'), true),
  });
export const S3SettingsSchema = s3SettingsSchema(false);
export type S3SettingsInput = v.InferInput<ReturnType<typeof s3SettingsSchema>>;
export type S3Settings = v.InferOutput<typeof S3SettingsSchema>;

/**
 * PUT /api/storage. With the database backend the S3 part is optional and, when sent, is not
 * checked or saved: the stored S3 settings stay as they were, to read files written there.
 */
export const storageBodySchema = (secretStored: boolean) =>
  v.variant(
    'backend',
    [
      v.object({ backend: v.literal('database'), s3: v.optional(v.unknown()), retention: v.optional(RetentionSchema, {}) }),
      v.object({
        backend: v.literal('s3'),
        s3: v.optional(s3SettingsSchema(secretStored), {}),
        retention: v.optional(RetentionSchema, {}),
      }),
    ],
    'Storage must be database or s3',
  );
export const StorageBodySchema = storageBodySchema(false);
export type StorageBodyInput = v.InferInput<typeof StorageBodySchema>;

/** POST /api/storage/test: the S3 fields as typed (saved or not); a blank secret uses the stored one. */
export const storageTestBodySchema = (secretStored: boolean) => v.object({ s3: v.optional(s3SettingsSchema(secretStored), {}) });
export const StorageTestBodySchema = storageTestBodySchema(false);

/** GET and PUT /api/storage: the settings as shown; the secret never leaves the server. */
export const StorageViewSchema = v.object({
  backend: v.picklist(STORAGE_BACKENDS),
  s3: v.nullable(
    v.object({
      endpoint: v.string(),
      region: v.string(),
      bucket: v.string(),
      accessKeyId: v.string(),
      pathStyle: v.boolean(),
      /** a secret access key is saved (for this endpoint, bucket and access key) */
      secretStored: v.boolean(),
    }),
  ),
  retention: v.record(v.string(), v.nullable(v.number())),
  updatedAt: v.nullable(v.string()),
});
export type StorageView = v.InferOutput<typeof StorageViewSchema>;

export const STORAGE_TEST_FAILURES = [
  'UNREACHABLE',
  'TIMEOUT',
  'ACCESS_DENIED',
  'NO_SUCH_BUCKET',
  'READ_BACK_MISMATCH',
  'S3_ERROR',
] as const;
export type StorageTestFailure = (typeof STORAGE_TEST_FAILURES)[number];

/** POST /api/storage/test: whether a probe object could be written, read back and deleted. */
export const StorageTestAnswerSchema = v.object({
  ok: v.boolean(),
  code: v.optional(v.picklist(STORAGE_TEST_FAILURES)),
  message: v.string(),
  /** the step that failed: write, read or delete */
  step: v.optional(v.picklist(['write', 'read', 'delete'])),
});
export type StorageTestAnswer = v.InferOutput<typeof StorageTestAnswerSchema>;
