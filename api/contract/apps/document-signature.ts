import * as v from 'valibot';
import { OptionalLocaleSchema } from '../locales';
import { PhoneNumberSchema } from '../sms';
import type { AppAction, TaskColumn } from '../platform';

// The Document Signature app: documents and their versions (a draft is edited, a published
// version never changes), signature requests, the customer's answers, settings, webhook events,
// activity columns and agent actions.

export const SIG_APP = 'document-signature' as const;

export const SIG_STATUSES = ['sent', 'opened', 'signed', 'completed', 'declined', 'expired', 'cancelled'] as const;
export const SigStatusSchema = v.picklist(SIG_STATUSES);
export type SigStatus = v.InferOutput<typeof SigStatusSchema>;
/** statuses in which the customer can still act (and an agent can cancel or resend) */
export const SIG_OPEN_STATUSES: readonly SigStatus[] = ['sent', 'opened'];

export const SIG_MAX_PDF_BYTES = 20 * 1024 * 1024;
export const SIG_MAX_PAGES = 200;
/** page images the admin's browser renders at publish: one JPEG per page */
export const SIG_MAX_PAGE_IMAGE_BYTES = 1024 * 1024;
/** The widths the console renders each page at when it publishes: the signer's page offers both (srcset). */
export const SIG_PAGE_IMAGE_WIDTH = 1000;
export const SIG_SMALL_PAGE_WIDTH = 720;

/**
 * Active content an upload may carry, all of it taken out before the file is stored (the only
 * actions kept are going to a place in the document and turning pages): what the admin is told.
 */
export const SIG_REMOVED_CONTENT = {
  javascript: 'JavaScript',
  'open-action': 'an action run when the document opens',
  'event-actions': 'actions run on page or form-field events',
  launch: 'actions that start programs',
  links: 'links to web addresses',
  'embedded-files': 'embedded files',
  xfa: 'an XFA form',
  media: 'media and 3D content',
  'other-actions': 'other actions (form submission, links to other files)',
} as const;
export type SigRemovedContent = keyof typeof SIG_REMOVED_CONTENT;
export const SIG_REMOVED_CONTENT_KINDS = Object.keys(SIG_REMOVED_CONTENT) as [SigRemovedContent, ...SigRemovedContent[]];

const int = (name: string, min: number, max: number) =>
  v.pipe(
    v.number(`${name} must be a number`),
    v.integer(`${name} must be a whole number`),
    v.minValue(min, `${name} is at least ${min}`),
    v.maxValue(max, `${name} is at most ${max}`),
  );
const text = (name: string, min: number, max: number) =>
  v.pipe(
    v.string(`${name} must be text`),
    v.trim(),
    v.minLength(min, `${name} is required`),
    v.maxLength(max, `${name} has at most ${max} characters`),
  );
const optionalText = (name: string, max: number) =>
  v.optional(
    v.nullable(v.pipe(v.string(`${name} must be text`), v.trim(), v.maxLength(max, `${name} has at most ${max} characters`))),
  );

// ---------------------------------------------------------------- settings

export const SigGeneralSettingsSchema = v.object({
  defaultExpiryDays: int('Default expiry', 1, 30),
  consentText: text('Consent text', 10, 1000),
});
export type SigGeneralSettings = v.InferOutput<typeof SigGeneralSettingsSchema>;
export const SIG_DEFAULT_SETTINGS: SigGeneralSettings = {
  defaultExpiryDays: 7,
  consentText:
    'I agree that my electronic signature is the legal equivalent of my handwritten signature on this document, and I consent to sign electronically.',
};

export const SIG_TEMPLATES = [
  {
    key: 'request',
    label: 'Signature request',
    defaultBody: '{{company}} sent you a document to sign: {{link}}',
    placeholders: ['company', 'link'] as const,
    required: ['link'] as const,
  },
];

// ---------------------------------------------------------------- documents and fields

export const SIG_FIELD_KINDS = ['signature', 'initials', 'fullName', 'dateSigned', 'text', 'checkbox'] as const;
export type SigFieldKind = (typeof SIG_FIELD_KINDS)[number];
export const SIG_FIELD_LABELS: Record<SigFieldKind, string> = {
  signature: 'Signature',
  initials: 'Initials',
  fullName: 'Full name',
  dateSigned: 'Date signed',
  text: 'Text',
  checkbox: 'Checkbox',
};

const fraction = (name: string) =>
  v.pipe(v.number(`${name} must be a number`), v.minValue(0, `${name} is at least 0`), v.maxValue(1, `${name} is at most 1`));

/** A field on a page. Position and size are fractions of the page (top-left origin), so they hold at any zoom. */
export const SigFieldSchema = v.pipe(
  v.object({
    id: v.pipe(v.string(), v.regex(/^[a-z0-9]{1,16}$/, 'id is 1 to 16 lowercase letters or digits')),
    kind: v.picklist(SIG_FIELD_KINDS, 'kind is not a field kind'),
    page: int('page', 0, SIG_MAX_PAGES - 1),
    x: fraction('x'),
    y: fraction('y'),
    w: v.pipe(fraction('w'), v.minValue(0.01, 'w is at least 0.01')),
    h: v.pipe(fraction('h'), v.minValue(0.005, 'h is at least 0.005')),
    label: v.pipe(v.string('label must be text'), v.trim(), v.maxLength(100, 'label has at most 100 characters')),
    required: v.boolean('required must be true or false'),
  }),
  v.check((f) => f.x + f.w <= 1.0001 && f.y + f.h <= 1.0001, 'A field must lie within its page'),
);
export type SigField = v.InferOutput<typeof SigFieldSchema>;

export const SigPageSizeSchema = v.object({ width: v.number(), height: v.number() });

/** PUT /api/document-signature/documents/{id}/draft */
export const SigDraftBodySchema = v.object({
  name: text('Name', 1, 200),
  fields: v.pipe(
    v.array(SigFieldSchema, 'fields must be a list'),
    v.maxLength(200, 'At most 200 fields'),
    v.check((list) => new Set(list.map((f) => f.id)).size === list.length, 'Field ids must be unique'),
  ),
});
export type SigDraftBody = v.InferOutput<typeof SigDraftBodySchema>;

/** POST /api/document-signature/documents/{id}/publish: optional page images rendered by the admin's browser. */
export const SigPublishBodySchema = v.object({
  pageImages: v.optional(
    v.array(
      v.pipe(v.string(), v.regex(/^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/, 'page images are JPEG data URLs')),
      'pageImages must be a list',
    ),
  ),
  /** the same pages about 480 px wide, for a phone's screen (srcset); optional, one per page when given */
  pageImagesSmall: v.optional(
    v.array(
      v.pipe(v.string(), v.regex(/^data:image\/jpeg;base64,[A-Za-z0-9+/=]+$/, 'page images are JPEG data URLs')),
      'pageImagesSmall must be a list',
    ),
  ),
});
export type SigPublishBody = v.InferOutput<typeof SigPublishBodySchema>;

/** POST /api/document-signature/documents?name=… with the PDF as the body */
export const SigUploadQuerySchema = v.object({ name: v.optional(text('name', 1, 200)) });

export const SigVersionSchema = v.object({
  documentId: v.string(),
  version: v.number(),
  state: v.picklist(['draft', 'published']),
  name: v.string(),
  fileName: v.string(),
  pageCount: v.number(),
  pages: v.array(SigPageSizeSchema),
  fields: v.array(SigFieldSchema),
  hasPageImages: v.boolean(),
  createdAt: v.string(),
  createdBy: v.string(),
  publishedAt: v.nullable(v.string()),
  publishedBy: v.nullable(v.string()),
  /** a short-lived link to the PDF (for the field editor) */
  fileUrl: v.string(),
  /** active content taken out of the uploaded file before it was stored (SIG_REMOVED_CONTENT) */
  removedContent: v.array(v.picklist(SIG_REMOVED_CONTENT_KINDS)),
});
export type SigVersion = v.InferOutput<typeof SigVersionSchema>;

export const SigDocumentSchema = v.object({
  id: v.string(),
  name: v.string(),
  createdAt: v.string(),
  /** the newest published version, or null before the first publish */
  publishedVersion: v.nullable(v.number()),
  /** the draft's version number, or null when there is no draft */
  draftVersion: v.nullable(v.number()),
  updatedAt: v.string(),
  requests: v.number(),
});
export type SigDocument = v.InferOutput<typeof SigDocumentSchema>;

export const SigHistoryEntrySchema = v.object({
  version: v.number(),
  state: v.picklist(['draft', 'published']),
  createdAt: v.string(),
  createdBy: v.string(),
  publishedAt: v.nullable(v.string()),
  publishedBy: v.nullable(v.string()),
  fields: v.number(),
});
export type SigHistoryEntry = v.InferOutput<typeof SigHistoryEntrySchema>;

// ---------------------------------------------------------------- signature requests

/** POST /api/v1/signatures */
export const SigSendBodySchema = v.object({
  documentId: v.pipe(v.string('documentId is required'), v.uuid('documentId is not a document id')),
  version: v.optional(v.nullable(int('version', 1, 1_000_000))),
  customerRef: optionalText('customerRef', 200),
  phoneNumber: PhoneNumberSchema,
  signerName: text('signerName', 1, 200),
  expiresInDays: v.optional(v.nullable(int('expiresInDays', 1, 30))),
  agent: optionalText('agent', 200),
  /** the signer's language (SMS, page, completion certificate); the account's default when absent */
  locale: OptionalLocaleSchema,
});
export type SigSendBody = v.InferOutput<typeof SigSendBodySchema>;

export const SigIdParamSchema = v.object({ id: v.pipe(v.string(), v.uuid('id is not a signature request id')) });
export const SigAgentBodySchema = v.object({ agent: optionalText('agent', 200) });

export const SIG_SEAL_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;

/** A signature request as /api/v1 and the console answer it. */
export const SigRequestSchema = v.object({
  id: v.string(),
  status: SigStatusSchema,
  documentId: v.string(),
  documentName: v.string(),
  version: v.number(),
  signerName: v.string(),
  /** masked: +1 •••• •• 4567 */
  phoneNumber: v.string(),
  customerRef: v.nullable(v.string()),
  agent: v.nullable(v.string()),
  sends: v.number(),
  createdAt: v.string(),
  expiresAt: v.string(),
  openedAt: v.nullable(v.string()),
  signedAt: v.nullable(v.string()),
  completedAt: v.nullable(v.string()),
  declineReason: v.nullable(v.string()),
  /** SHA-256 (hex) of the original PDF and, once completed, of the sealed PDF */
  originalSha256: v.string(),
  signedSha256: v.nullable(v.string()),
  /** once sealed: the PAdES baseline level (B-B; B-T with a trusted timestamp; B-LTA with validation data under a document time-stamp; B-LT on seals made before B-LTA) */
  sealLevel: v.nullable(v.picklist(SIG_SEAL_LEVELS)),
  /** once sealed: the signing certificate's name */
  sealedBy: v.nullable(v.string()),
  /** the trusted time of the seal (from the time-stamping authority), when it has one */
  timestampedAt: v.nullable(v.string()),
});
export type SigRequest = v.InferOutput<typeof SigRequestSchema>;

/** The console's detail extras: downloads through short-lived signed links. */
export const SigRequestFilesSchema = v.object({
  request: SigRequestSchema,
  originalUrl: v.string(),
  signedUrl: v.nullable(v.string()),
});
export type SigRequestFiles = v.InferOutput<typeof SigRequestFilesSchema>;

export const SIG_EVENT_TYPES = [
  'document.sent',
  'document.opened',
  'document.signed',
  'document.completed',
  'document.declined',
  'document.expired',
] as const;

export const SIG_COLUMNS: TaskColumn[] = [
  { key: 'id', label: 'ID', kind: 'id' },
  { key: 'documentName', label: 'Document', kind: 'text' },
  { key: 'signerName', label: 'Signer', kind: 'text' },
  { key: 'phoneNumber', label: 'Phone', kind: 'phone' },
  { key: 'status', label: 'Status', kind: 'status' },
  { key: 'agent', label: 'Agent', kind: 'text' },
  { key: 'customerRef', label: 'Customer', kind: 'text' },
  { key: 'createdAt', label: 'Sent', kind: 'date' },
  { key: 'endedAt', label: 'Completed or ended at', kind: 'date' },
];

export const SIG_ACTIONS: AppAction[] = [
  {
    key: 'send',
    label: 'Send for signature',
    description: 'Text the customer a link to read and sign a published document.',
    needsTask: false,
    fields: [
      {
        name: 'documentId',
        label: 'Document',
        kind: 'choice',
        required: true,
        placeholder: 'Search published documents',
        empty: 'No document is published yet: an admin publishes one under Documents.',
      },
      { name: 'signerName', label: "Signer's full name", kind: 'text', required: true },
      { name: 'phoneNumber', label: 'Phone number', kind: 'phone', required: true, placeholder: '+15551234567' },
      { name: 'locale', label: "Caller's language", kind: 'locale', required: false },
      { name: 'customerRef', label: 'Customer ID', kind: 'text', required: false },
    ],
  },
  {
    key: 'resend',
    label: 'Resend link',
    description: 'Text the same request again with a new link.',
    needsTask: true,
    fields: [],
  },
  {
    key: 'cancel',
    label: 'Cancel request',
    description: 'Withdraw the request: its link stops working.',
    needsTask: true,
    fields: [],
  },
];

/** The customer page's form (urlencoded): what the server reads from it. */
export const SIG_CUSTOMER_FIELD_PREFIX = 'field_';

// ---------------------------------------------------------------- signing certificates (PAdES)

/** Largest PKCS#12 or PEM upload (a key and a chain are a few KB). */
export const SIG_MAX_CERTIFICATE_BYTES = 64 * 1024;

const activeFrom = v.optional(
  v.nullable(
    v.pipe(
      v.string('activeFrom must be a date and time'),
      v.isoTimestamp('activeFrom must be an ISO date and time, e.g. 2026-12-01T00:00:00Z'),
    ),
  ),
);

/** An admin uploads the account's own certificate: a PKCS#12 file (base64) with its password, or PEM text. */
export const SigCertificateUploadSchema = v.variant(
  'format',
  [
    v.object({
      format: v.literal('pkcs12'),
      /** the .p12 / .pfx file, base64 */
      file: v.pipe(
        v.string('file must be the PKCS#12 file in base64'),
        v.minLength(1, 'Choose a .p12 or .pfx file'),
        v.maxLength(Math.ceil((SIG_MAX_CERTIFICATE_BYTES * 4) / 3) + 4, 'The file is larger than 64 KB'),
        v.base64('file must be base64'),
      ),
      password: v.pipe(v.string('password must be text'), v.maxLength(500, 'password has at most 500 characters')),
      /** when it takes over from the current certificate (default: now) */
      activeFrom,
    }),
    v.object({
      format: v.literal('pem'),
      /** the private key (PKCS#8, optionally encrypted) and the certificates, leaf first */
      pem: v.pipe(
        v.string('pem must be text'),
        v.minLength(1, 'Paste the private key and the certificates'),
        v.maxLength(SIG_MAX_CERTIFICATE_BYTES, 'The PEM text is larger than 64 KB'),
      ),
      password: v.optional(
        v.pipe(v.string('password must be text'), v.maxLength(500, 'password has at most 500 characters')),
        '',
      ),
      activeFrom,
    }),
  ],
  'format must be pkcs12 or pem',
);
export type SigCertificateUpload = v.InferOutput<typeof SigCertificateUploadSchema>;

export const SIG_CERTIFICATE_STATES = ['active', 'scheduled', 'previous', 'expired'] as const;

/** An uploaded certificate as the console sees it: never the key, never the password. */
export const SigCertificateSchema = v.object({
  id: v.string(),
  subject: v.string(),
  issuer: v.string(),
  serial: v.string(),
  /** SHA-256 of the certificate, hex with colons */
  fingerprint: v.string(),
  keyType: v.string(),
  notBefore: v.string(),
  notAfter: v.string(),
  activeFrom: v.string(),
  uploadedBy: v.string(),
  uploadedAt: v.string(),
  /** active: seals now; scheduled: takes over at activeFrom; previous: replaced, kept until it expires or is removed */
  state: v.picklist(SIG_CERTIFICATE_STATES),
});
export type SigCertificate = v.InferOutput<typeof SigCertificateSchema>;

/** Document Signature > Configuration > Signing: the account's certificates and what seals without them. */
export const SigSigningSchema = v.object({
  certificates: v.array(SigCertificateSchema),
  /** the certificate that seals when the account has none active */
  providerCertificate: v.object({ subject: v.string(), development: v.boolean() }),
  /** the provider's time-stamping authority, or null: seals are then PAdES B-B */
  timestampAuthority: v.nullable(v.string()),
});
export type SigSigning = v.InferOutput<typeof SigSigningSchema>;
