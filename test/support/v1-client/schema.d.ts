// Made by openapi-typescript from GET /api/v1/openapi.json: do not edit. Remake it with
// UPDATE_V1_TYPES=1 npx vitest run --project api test/api/typed-client.test.ts

export interface paths {
    "/otp/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a passcode
         * @description Texts a one-time passcode to phoneNumber through the account's SMS Configuration. While a verification for the same number is pending, the same code is sent again (a resend counts as a send) and the answer is 200 with that verification.
         */
        post: operations["sendPasscode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/otp/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a code
         * @description Answers the verification with its status: approved, pending (wrong code, attempts left), max_attempts_reached, expired or canceled.
         */
        post: operations["checkPasscode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/otp/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a verification
         * @description The verification with its status: pending, approved, canceled, max_attempts_reached, expired or failed (a pending one past its expiry is answered expired).
         */
        get: operations["getVerification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/otp/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a verification
         * @description Ends a pending verification: its code no longer checks. A finished one is answered as it is.
         */
        post: operations["cancelVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/enrollments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enroll a passkey
         * @description Texts the customer a link (the Enrollment message of SMS content) that opens a page where they create a passkey with the name displayName (customerRef when absent). Answers the task; GET it to follow it, or subscribe to passkey.enrolled and passkey.failed.
         */
        post: operations["enrollPasskey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/verifications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Verify with a passkey
         * @description Texts the customer a link that opens a page where they confirm it is them with one of their passkeys (only this customer's passkeys are offered). A customer with no passkey answers 409 NO_PASSKEY: enroll one first.
         */
        post: operations["verifyWithPasskey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/enrollments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an enrollment
         * @description The enrollment with its status: link_sent, started, succeeded, failed, expired, not_delivered or cancelled. An id of a verification is not found here.
         */
        get: operations["getPasskeyEnrollment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/verifications/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a verification
         * @description The verification with its status: link_sent, started, succeeded, failed, expired, not_delivered or cancelled. An id of an enrollment is not found here.
         */
        get: operations["getPasskeyVerification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/enrollments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an enrollment
         * @description Ends an enrollment still waiting for the customer: its link stops working at once. A finished one is answered as it is.
         */
        post: operations["cancelPasskeyEnrollment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/passkeys/verifications/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a verification
         * @description Ends a verification still waiting for the customer: its link stops working at once. A finished one is answered as it is.
         */
        post: operations["cancelPasskeyVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/idv/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an identity verification
         * @description Texts the customer a link (through the account's SMS Configuration) to photograph their ID (front, and back where it has one) and take a selfie. A reviewer decides in the console; follow the session with GET or the idv.session.* webhooks. expectedName and expectedDateOfBirth (YYYY-MM-DD) are compared with the document's machine-readable zone.
         */
        post: operations["startIdentityVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/idv/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an identity verification
         * @description The session with its status and the result of each check (never the photos or the document data).
         */
        get: operations["getIdentityVerification"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/idv/sessions/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an identity verification
         * @description Ends a session not yet decided: its link stops working at once. A finished one is answered as it is.
         */
        post: operations["cancelIdentityVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/forms/{id}/requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a form
         * @description Texts the customer a one-time link to the form's latest published version through the account's SMS Configuration. `prefill` fills the form's hidden fields (customerRef fills itself); the submission carries them.
         */
        post: operations["sendForm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/form-requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a form request
         * @description The request with its status; once submitted, `answers` holds the answers by field id (files as name, size, type and fileId).
         */
        get: operations["getFormRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request a payment
         * @description Creates a Stripe Checkout Session on the account's connected Stripe account (a direct charge) for a product of the catalog (productId) or for an amount in minor units (amount, currency, description), and texts its link to phoneNumber. The link works expiresInMinutes (30 to 1440; the app's link validity when absent). The payment then moves through requested, opened, succeeded, failed, expired, partially_refunded and refunded as Stripe reports it.
         */
        post: operations["requestPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a payment
         * @description The payment with its status (requested, opened, succeeded, failed, expired, partially_refunded, refunded), amount and refunds, as Stripe has reported them.
         */
        get: operations["getPayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/signatures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a document for signature
         * @description Texts signerName a link to read and sign a published version of the document (the newest, unless version names one). The request records that version: later edits never change what was sent. It expires after expiresInDays (the default from Configuration > General).
         */
        post: operations["sendForSignature"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/signatures/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a signature request
         * @description Statuses: sent, opened, signed (sealing), completed (sealed), declined, expired, cancelled.
         */
        get: operations["getSignatureRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/signatures/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a signature request
         * @description Ends a request still waiting for its signer (sent or opened): its link stops working at once. Any other status answers 409 NOT_OPEN.
         */
        post: operations["cancelSignatureRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/signatures/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the link again
         * @description Texts a new link; the previous link stops working. The expiry does not change.
         */
        post: operations["resendSignatureRequest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/journeys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a journey
         * @description Texts the caller one link that walks them through the steps of a journey template (templateId) or of the steps given inline, in order. Each step is sent through its app when the caller reaches it, as an ordinary task of that app, charged as that app charges a send. A passcode step can only come first, and nothing after it exists until it passes. The first step's app answers its own refusals (a form that is not published, the free tier used up).
         */
        post: operations["sendJourney"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/journeys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a journey
         * @description The journey with its status (active, paused, completed, failed, expired) and every step: its app, its task id in that app (null until the caller reaches it) and that task's status.
         */
        get: operations["getJourney"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/journeys/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resend a journey from the step that failed
         * @description For a failed, expired or paused journey: sends the unfinished step again through its app (a new task) and texts the caller a new link; the old link stops working.
         */
        post: operations["resendJourney"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer-data/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Find what is held about a caller
         * @description Counts, by app and by store, every record the account holds about one caller: give phoneNumber (any spelling with a country code: spaces, dots, dashes and brackets are ignored) or customerRef. Records found by one are followed to the other (a number's records name its customer references and back). Signature requests under a legal hold are counted in legalHolds.
         */
        post: operations["searchCustomerData"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/erasure-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase a caller's data
         * @description Redacts every record of one caller across the six apps and the shared stores (SMS outbox and message log, stored idempotent answers, webhook events and log shipments, audit entries), deletes their files (in the account's S3 bucket too) and asks Twilio to delete its copy of each message. Records stay for counts and billing without their personal fields. Signed documents under a legal hold are kept and listed in `held`. Answers the receipt (counts per store, no personal data): 201 for a new request, 200 when one for the same caller is still being worked on (asking again is safe). A request interrupted halfway is finished by the next call or by the server's job: `state` is then `running` until it is done.
         */
        post: operations["requestErasure"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/erasure-requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an erasure request
         * @description The receipt of an erasure request: its state, what was erased by store, what is kept under a legal hold, who asked and when.
         */
        get: operations["getErasureRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/export-requests": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Export a caller's data
         * @description Asks for a ZIP of everything held about one caller: a JSON document per app and the files beside it. Answers at once with the request (`state` `pending`); a job makes the ZIP, usually within a minute: ask for the request (GET /export-requests/{id}) until `state` is `done`, when `downloadUrl` is a signed link that works for 10 minutes (ask again for a fresh one). 201 for a new request, 200 when one for the same caller is still being made.
         */
        post: operations["requestExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/export-requests/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an export request
         * @description The export request with, once done, a fresh 10-minute download link.
         */
        get: operations["getExportRequest"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Error: {
            code: string;
            message: string;
            fields?: {
                [key: string]: string;
            };
            requestId: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The account's quota policy: `"default";q=<requests>;w=<seconds>`. A bucket of q requests that refills in w seconds (the default `"default";q=40;w=2`: 20 a second, bursts of 40). Provider staff set each account's limit. */
        "RateLimit-Policy": string;
        /** @description What is left now: `"default";r=<requests left>;t=<seconds until the bucket is full again>`. At r=0 the next request answers 429 RATE_LIMITED; wait Retry-After. */
        RateLimit: string;
        /** @description Seconds to wait before asking again. */
        "Retry-After": number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    sendPasscode: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    phoneNumber: string;
                    customerRef?: string | null;
                    agent?: string | null;
                    locale?: ("en" | "es" | "fr" | "de" | "pt-BR" | "ar" | "ja") | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "pending" | "approved" | "canceled" | "max_attempts_reached" | "expired" | "failed";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        checks: number;
                        attemptsLeft: number;
                        createdAt: string;
                        expiresAt: string;
                        verifiedAt: string | null;
                        failureReason: string | null;
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "pending" | "approved" | "canceled" | "max_attempts_reached" | "expired" | "failed";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        checks: number;
                        attemptsLeft: number;
                        createdAt: string;
                        expiresAt: string;
                        verifiedAt: string | null;
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FREE_TIER_EXHAUSTED: The app's free tier is used up: subscribe to it in the console. */
            402: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description APP_NOT_ACTIVE: The app is not active on this account: start a free trial or subscribe in the console. COUNTRY_NOT_ALLOWED: The number's country is not among the countries this account may text (Settings > SMS Configuration). */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NUMBER_TYPE_NOT_ALLOWED: The number is premium-rate or shared-cost, or not a valid number of its country. */
            422: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. SMS_PUMPING_SUSPECTED: Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first. TOO_MANY_SENDS: Too many passcodes to this number in 10 minutes; Retry-After says when the next is allowed. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    checkPasscode: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    id: string;
                    code: string;
                    agent?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "pending" | "approved" | "canceled" | "max_attempts_reached" | "expired" | "failed";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        checks: number;
                        attemptsLeft: number;
                        createdAt: string;
                        expiresAt: string;
                        verifiedAt: string | null;
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "pending" | "approved" | "canceled" | "max_attempts_reached" | "expired" | "failed";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        checks: number;
                        attemptsLeft: number;
                        createdAt: string;
                        expiresAt: string;
                        verifiedAt: string | null;
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    agent?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "pending" | "approved" | "canceled" | "max_attempts_reached" | "expired" | "failed";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        checks: number;
                        attemptsLeft: number;
                        createdAt: string;
                        expiresAt: string;
                        verifiedAt: string | null;
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    enrollPasskey: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    customerRef: string;
                    phoneNumber: string;
                    displayName?: string | null;
                    agent?: string | null;
                    locale?: ("en" | "es" | "fr" | "de" | "pt-BR" | "ar" | "ja") | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "enrollment" | "verification";
                        /** @enum {string} */
                        status: "link_sent" | "started" | "succeeded" | "failed" | "expired" | "not_delivered" | "cancelled";
                        customerRef: string;
                        phoneNumber: string;
                        agent: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                        failureReason: ("cancelled" | "unsupported" | "unknown_credential" | "bad_signature" | "wrong_origin" | "counter_regression" | "invalid_response" | "no_passkey" | "expired" | "not_delivered") | null;
                        credentialId: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FREE_TIER_EXHAUSTED: The app's free tier is used up: subscribe to it in the console. */
            402: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description APP_NOT_ACTIVE: The app is not active on this account: start a free trial or subscribe in the console. COUNTRY_NOT_ALLOWED: The number's country is not among the countries this account may text (Settings > SMS Configuration). */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NUMBER_TYPE_NOT_ALLOWED: The number is premium-rate or shared-cost, or not a valid number of its country. */
            422: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. SMS_PUMPING_SUSPECTED: Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyWithPasskey: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    customerRef: string;
                    phoneNumber: string;
                    agent?: string | null;
                    locale?: ("en" | "es" | "fr" | "de" | "pt-BR" | "ar" | "ja") | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "enrollment" | "verification";
                        /** @enum {string} */
                        status: "link_sent" | "started" | "succeeded" | "failed" | "expired" | "not_delivered" | "cancelled";
                        customerRef: string;
                        phoneNumber: string;
                        agent: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                        failureReason: ("cancelled" | "unsupported" | "unknown_credential" | "bad_signature" | "wrong_origin" | "counter_regression" | "invalid_response" | "no_passkey" | "expired" | "not_delivered") | null;
                        credentialId: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FREE_TIER_EXHAUSTED: The app's free tier is used up: subscribe to it in the console. */
            402: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description APP_NOT_ACTIVE: The app is not active on this account: start a free trial or subscribe in the console. COUNTRY_NOT_ALLOWED: The number's country is not among the countries this account may text (Settings > SMS Configuration). */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). NO_PASSKEY: The customer has no passkey yet: enroll one first. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NUMBER_TYPE_NOT_ALLOWED: The number is premium-rate or shared-cost, or not a valid number of its country. */
            422: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. SMS_PUMPING_SUSPECTED: Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPasskeyEnrollment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "enrollment" | "verification";
                        /** @enum {string} */
                        status: "link_sent" | "started" | "succeeded" | "failed" | "expired" | "not_delivered" | "cancelled";
                        customerRef: string;
                        phoneNumber: string;
                        agent: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                        failureReason: ("cancelled" | "unsupported" | "unknown_credential" | "bad_signature" | "wrong_origin" | "counter_regression" | "invalid_response" | "no_passkey" | "expired" | "not_delivered") | null;
                        credentialId: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPasskeyVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "enrollment" | "verification";
                        /** @enum {string} */
                        status: "link_sent" | "started" | "succeeded" | "failed" | "expired" | "not_delivered" | "cancelled";
                        customerRef: string;
                        phoneNumber: string;
                        agent: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                        failureReason: ("cancelled" | "unsupported" | "unknown_credential" | "bad_signature" | "wrong_origin" | "counter_regression" | "invalid_response" | "no_passkey" | "expired" | "not_delivered") | null;
                        credentialId: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelPasskeyEnrollment: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    agent?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "enrollment" | "verification";
                        /** @enum {string} */
                        status: "link_sent" | "started" | "succeeded" | "failed" | "expired" | "not_delivered" | "cancelled";
                        customerRef: string;
                        phoneNumber: string;
                        agent: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                        failureReason: ("cancelled" | "unsupported" | "unknown_credential" | "bad_signature" | "wrong_origin" | "counter_regression" | "invalid_response" | "no_passkey" | "expired" | "not_delivered") | null;
                        credentialId: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelPasskeyVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    agent?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "enrollment" | "verification";
                        /** @enum {string} */
                        status: "link_sent" | "started" | "succeeded" | "failed" | "expired" | "not_delivered" | "cancelled";
                        customerRef: string;
                        phoneNumber: string;
                        agent: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                        failureReason: ("cancelled" | "unsupported" | "unknown_credential" | "bad_signature" | "wrong_origin" | "counter_regression" | "invalid_response" | "no_passkey" | "expired" | "not_delivered") | null;
                        credentialId: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startIdentityVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    customerRef: string;
                    phoneNumber: string;
                    expectedName?: string | null;
                    expectedDateOfBirth?: string | null;
                    agent?: string | null;
                    locale?: ("en" | "es" | "fr" | "de" | "pt-BR" | "ar" | "ja") | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "created" | "link_sent" | "in_progress" | "submitted" | "needs_review" | "approved" | "declined" | "resubmission_requested" | "expired" | "cancelled";
                        phoneNumber: string;
                        customerRef: string;
                        agent: string | null;
                        documentType: string | null;
                        createdAt: string;
                        linkExpiresAt: string | null;
                        submittedAt: string | null;
                        decidedAt: string | null;
                        decisionReason: string | null;
                        redactedAt: string | null;
                        checks: {
                            key: string;
                            label: string;
                            /** @enum {string} */
                            status: "passed" | "failed" | "not_run";
                            reason: string;
                            message: string;
                        }[];
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description COUNTRY_NOT_ALLOWED: The number's country is not among the countries this account may text (Settings > SMS Configuration). */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: This account cannot use Identity Verification: it is open only to accounts of the provider's own staff while unreleased. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NUMBER_TYPE_NOT_ALLOWED: The number is premium-rate or shared-cost, or not a valid number of its country. */
            422: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. SMS_PUMPING_SUSPECTED: Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getIdentityVerification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "created" | "link_sent" | "in_progress" | "submitted" | "needs_review" | "approved" | "declined" | "resubmission_requested" | "expired" | "cancelled";
                        phoneNumber: string;
                        customerRef: string;
                        agent: string | null;
                        documentType: string | null;
                        createdAt: string;
                        linkExpiresAt: string | null;
                        submittedAt: string | null;
                        decidedAt: string | null;
                        decisionReason: string | null;
                        redactedAt: string | null;
                        checks: {
                            key: string;
                            label: string;
                            /** @enum {string} */
                            status: "passed" | "failed" | "not_run";
                            reason: string;
                            message: string;
                        }[];
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelIdentityVerification: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    agent?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "created" | "link_sent" | "in_progress" | "submitted" | "needs_review" | "approved" | "declined" | "resubmission_requested" | "expired" | "cancelled";
                        phoneNumber: string;
                        customerRef: string;
                        agent: string | null;
                        documentType: string | null;
                        createdAt: string;
                        linkExpiresAt: string | null;
                        submittedAt: string | null;
                        decidedAt: string | null;
                        decisionReason: string | null;
                        redactedAt: string | null;
                        checks: {
                            key: string;
                            label: string;
                            /** @enum {string} */
                            status: "passed" | "failed" | "not_run";
                            reason: string;
                            message: string;
                        }[];
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendForm: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    phoneNumber: string;
                    customerRef?: string | null;
                    prefill?: {
                        [key: string]: string;
                    };
                    agent?: string | null;
                    locale?: ("en" | "es" | "fr" | "de" | "pt-BR" | "ar" | "ja") | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        formTitle: string;
                        version: number;
                        /** @enum {string} */
                        status: "sent" | "opened" | "submitted" | "expired" | "failed";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        prefill: {
                            [key: string]: string;
                        };
                        createdAt: string;
                        expiresAt: string;
                        openedAt: string | null;
                        submittedAt: string | null;
                        failureReason: string | null;
                        answers: {
                            [key: string]: (string | number | boolean | string[] | {
                                name: string;
                                size: number;
                                type: string;
                                fileId?: string;
                            }) | null;
                        } | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FREE_TIER_EXHAUSTED: The app's free tier is used up: subscribe to it in the console. */
            402: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description APP_NOT_ACTIVE: The app is not active on this account: start a free trial or subscribe in the console. COUNTRY_NOT_ALLOWED: The number's country is not among the countries this account may text (Settings > SMS Configuration). */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. FORM_NOT_PUBLISHED: The form has never been published. FORM_CLOSED: The form is closed: publish it again to send it. SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NUMBER_TYPE_NOT_ALLOWED: The number is premium-rate or shared-cost, or not a valid number of its country. */
            422: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. SMS_PUMPING_SUSPECTED: Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFormRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        formId: string;
                        formTitle: string;
                        version: number;
                        /** @enum {string} */
                        status: "sent" | "opened" | "submitted" | "expired" | "failed";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        prefill: {
                            [key: string]: string;
                        };
                        createdAt: string;
                        expiresAt: string;
                        openedAt: string | null;
                        submittedAt: string | null;
                        failureReason: string | null;
                        answers: {
                            [key: string]: (string | number | boolean | string[] | {
                                name: string;
                                size: number;
                                type: string;
                                fileId?: string;
                            }) | null;
                        } | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestPayment: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    phoneNumber: string;
                    customerRef?: string | null;
                    agent?: string | null;
                    productId?: string;
                    amount?: number;
                    currency?: string;
                    description?: string;
                    expiresInMinutes?: number;
                    locale?: ("en" | "es" | "fr" | "de" | "pt-BR" | "ar" | "ja") | null;
                } & ({
                    productId: unknown;
                    amount?: never;
                    currency?: never;
                } | {
                    amount: unknown;
                    description: unknown;
                    productId?: never;
                });
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "requested" | "opened" | "succeeded" | "failed" | "expired" | "partially_refunded" | "refunded";
                        amount: number;
                        currency: string;
                        description: string;
                        productId: string | null;
                        priceId: string | null;
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        checkoutSessionId: string | null;
                        paymentIntentId: string | null;
                        refundedAmount: number;
                        createdAt: string;
                        expiresAt: string;
                        paidAt: string | null;
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FREE_TIER_EXHAUSTED: The app's free tier is used up: subscribe to it in the console. */
            402: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description APP_NOT_ACTIVE: The app is not active on this account: start a free trial or subscribe in the console. COUNTRY_NOT_ALLOWED: The number's country is not among the countries this account may text (Settings > SMS Configuration). */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. STRIPE_NOT_CONNECTED: No Stripe account is connected (Payments > Configuration > Stripe). SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NUMBER_TYPE_NOT_ALLOWED: The number is premium-rate or shared-cost, or not a valid number of its country. */
            422: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. SMS_PUMPING_SUSPECTED: Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description STRIPE_UNAVAILABLE: Stripe did not answer as expected. */
            502: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. STRIPE_CONNECT_NOT_CONFIGURED: Stripe Connect is not set up on this server. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "requested" | "opened" | "succeeded" | "failed" | "expired" | "partially_refunded" | "refunded";
                        amount: number;
                        currency: string;
                        description: string;
                        productId: string | null;
                        priceId: string | null;
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        checkoutSessionId: string | null;
                        paymentIntentId: string | null;
                        refundedAmount: number;
                        createdAt: string;
                        expiresAt: string;
                        paidAt: string | null;
                        failureReason: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendForSignature: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    documentId: string;
                    version?: number | null;
                    customerRef?: string | null;
                    phoneNumber: string;
                    signerName: string;
                    expiresInDays?: number | null;
                    agent?: string | null;
                    locale?: ("en" | "es" | "fr" | "de" | "pt-BR" | "ar" | "ja") | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "sent" | "opened" | "signed" | "completed" | "declined" | "expired" | "cancelled";
                        documentId: string;
                        documentName: string;
                        version: number;
                        signerName: string;
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        createdAt: string;
                        expiresAt: string;
                        openedAt: string | null;
                        signedAt: string | null;
                        completedAt: string | null;
                        declineReason: string | null;
                        originalSha256: string;
                        signedSha256: string | null;
                        sealLevel: ("B-B" | "B-T" | "B-LT" | "B-LTA") | null;
                        sealedBy: string | null;
                        timestampedAt: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FREE_TIER_EXHAUSTED: The app's free tier is used up: subscribe to it in the console. */
            402: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description APP_NOT_ACTIVE: The app is not active on this account: start a free trial or subscribe in the console. COUNTRY_NOT_ALLOWED: The number's country is not among the countries this account may text (Settings > SMS Configuration). */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. VERSION_NOT_PUBLISHED: The version asked for is a draft: publish it first. SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NUMBER_TYPE_NOT_ALLOWED: The number is premium-rate or shared-cost, or not a valid number of its country. */
            422: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. SMS_PUMPING_SUSPECTED: Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SMS_NOT_DELIVERED: The SMS provider did not take the message: its credit is given back and the link does not work (a new request is cancelled). */
            502: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSignatureRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "sent" | "opened" | "signed" | "completed" | "declined" | "expired" | "cancelled";
                        documentId: string;
                        documentName: string;
                        version: number;
                        signerName: string;
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        createdAt: string;
                        expiresAt: string;
                        openedAt: string | null;
                        signedAt: string | null;
                        completedAt: string | null;
                        declineReason: string | null;
                        originalSha256: string;
                        signedSha256: string | null;
                        sealLevel: ("B-B" | "B-T" | "B-LT" | "B-LTA") | null;
                        sealedBy: string | null;
                        timestampedAt: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelSignatureRequest: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    agent?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "sent" | "opened" | "signed" | "completed" | "declined" | "expired" | "cancelled";
                        documentId: string;
                        documentName: string;
                        version: number;
                        signerName: string;
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        createdAt: string;
                        expiresAt: string;
                        openedAt: string | null;
                        signedAt: string | null;
                        completedAt: string | null;
                        declineReason: string | null;
                        originalSha256: string;
                        signedSha256: string | null;
                        sealLevel: ("B-B" | "B-T" | "B-LT" | "B-LTA") | null;
                        sealedBy: string | null;
                        timestampedAt: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. NOT_OPEN: The request is no longer waiting for its customer. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resendSignatureRequest: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    agent?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        status: "sent" | "opened" | "signed" | "completed" | "declined" | "expired" | "cancelled";
                        documentId: string;
                        documentName: string;
                        version: number;
                        signerName: string;
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        sends: number;
                        createdAt: string;
                        expiresAt: string;
                        openedAt: string | null;
                        signedAt: string | null;
                        completedAt: string | null;
                        declineReason: string | null;
                        originalSha256: string;
                        signedSha256: string | null;
                        sealLevel: ("B-B" | "B-T" | "B-LT" | "B-LTA") | null;
                        sealedBy: string | null;
                        timestampedAt: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. NOT_OPEN: The request is no longer waiting for its customer. SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SMS_NOT_DELIVERED: The SMS provider did not take the message: its credit is given back and the link does not work (a new request is cancelled). */
            502: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendJourney: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    templateId?: string;
                    steps?: ({
                        /** @constant */
                        app: "one-time-passcode";
                        /**
                         * @default false
                         * @constant
                         */
                        optional?: false;
                    } | {
                        /** @constant */
                        app: "passkeys";
                        /**
                         * @default verify
                         * @enum {string}
                         */
                        action?: "verify" | "enroll";
                        /**
                         * @default false
                         * @constant
                         */
                        optional?: false;
                    } | {
                        /** @constant */
                        app: "identity-verification";
                        /**
                         * @default false
                         * @constant
                         */
                        optional?: false;
                    } | {
                        /** @constant */
                        app: "e-form";
                        /** Format: uuid */
                        formId: string;
                        /** @default false */
                        optional?: boolean;
                    } | {
                        /** @constant */
                        app: "document-signature";
                        /** Format: uuid */
                        documentId: string;
                        /** @default false */
                        optional?: boolean;
                    } | {
                        /** @constant */
                        app: "payments";
                        productId?: string;
                        amount?: number;
                        currency?: string;
                        description?: string;
                        /** @default false */
                        optional?: boolean;
                    })[];
                    /** @enum {string} */
                    onFailure?: "end" | "pause";
                    phoneNumber: string;
                    customerRef?: string | null;
                    customerName?: string | null;
                    agent?: string | null;
                    locale?: ("en" | "es" | "fr" | "de" | "pt-BR" | "ar" | "ja") | null;
                } & ({
                    templateId: unknown;
                    steps?: never;
                } | {
                    steps: unknown;
                    templateId?: never;
                });
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        templateId: string | null;
                        name: string;
                        /** @enum {string} */
                        status: "active" | "paused" | "completed" | "failed" | "expired" | "canceled";
                        /** @enum {string} */
                        onFailure: "end" | "pause";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        locale: string | null;
                        currentStep: number;
                        steps: {
                            position: number;
                            /** @enum {string} */
                            app: "one-time-passcode" | "passkeys" | "identity-verification" | "e-form" | "document-signature" | "payments";
                            optional: boolean;
                            /** @enum {string} */
                            status: "waiting" | "sending" | "active" | "done" | "skipped" | "failed" | "expired";
                            taskId: string | null;
                            taskStatus: string | null;
                            attempts: number;
                        }[];
                        failureReason: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FREE_TIER_EXHAUSTED: The app's free tier is used up: subscribe to it in the console. */
            402: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description APP_NOT_ACTIVE: The app is not active on this account: start a free trial or subscribe in the console. COUNTRY_NOT_ALLOWED: The number's country is not among the countries this account may text (Settings > SMS Configuration). APP_NOT_RELEASED: APP_NOT_RELEASED */
            403: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. SMS_NOT_CONFIGURED: No SMS provider is connected (Settings > SMS Configuration). FORM_NOT_PUBLISHED: The form has never been published. VERSION_NOT_PUBLISHED: The version asked for is a draft: publish it first. TOO_MANY_SENDS: Too many passcodes to this number in 10 minutes; Retry-After says when the next is allowed. NO_PASSKEY: The customer has no passkey yet: enroll one first. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NUMBER_TYPE_NOT_ALLOWED: The number is premium-rate or shared-cost, or not a valid number of its country. */
            422: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. SMS_PUMPING_SUSPECTED: Texts to this number range are held: the account sent far more than usual to it with few codes used (SMS pumping). Retry-After says when the hold ends unless an admin releases it first. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJourney: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        templateId: string | null;
                        name: string;
                        /** @enum {string} */
                        status: "active" | "paused" | "completed" | "failed" | "expired" | "canceled";
                        /** @enum {string} */
                        onFailure: "end" | "pause";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        locale: string | null;
                        currentStep: number;
                        steps: {
                            position: number;
                            /** @enum {string} */
                            app: "one-time-passcode" | "passkeys" | "identity-verification" | "e-form" | "document-signature" | "payments";
                            optional: boolean;
                            /** @enum {string} */
                            status: "waiting" | "sending" | "active" | "done" | "skipped" | "failed" | "expired";
                            taskId: string | null;
                            taskStatus: string | null;
                            attempts: number;
                        }[];
                        failureReason: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resendJourney: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    agent?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        templateId: string | null;
                        name: string;
                        /** @enum {string} */
                        status: "active" | "paused" | "completed" | "failed" | "expired" | "canceled";
                        /** @enum {string} */
                        onFailure: "end" | "pause";
                        phoneNumber: string;
                        customerRef: string | null;
                        agent: string | null;
                        locale: string | null;
                        currentStep: number;
                        steps: {
                            position: number;
                            /** @enum {string} */
                            app: "one-time-passcode" | "passkeys" | "identity-verification" | "e-form" | "document-signature" | "payments";
                            optional: boolean;
                            /** @enum {string} */
                            status: "waiting" | "sending" | "active" | "done" | "skipped" | "failed" | "expired";
                            taskId: string | null;
                            taskStatus: string | null;
                            attempts: number;
                        }[];
                        failureReason: string | null;
                        createdAt: string;
                        expiresAt: string;
                        endedAt: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has nothing with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. JOURNEY_IN_PROGRESS: JOURNEY_IN_PROGRESS JOURNEY_ENDED: JOURNEY_ENDED */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchCustomerData: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    phoneNumber?: string;
                    customerRef?: string;
                } & ({
                    phoneNumber: unknown;
                    customerRef?: never;
                } | {
                    customerRef: unknown;
                    phoneNumber?: never;
                });
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        total: number;
                        apps: {
                            app: string;
                            title: string;
                            count: number;
                            stores: {
                                /** @enum {string} */
                                store: "otp.verifications" | "otp.sends" | "passkeys.tasks" | "passkeys.credentials" | "idv.sessions" | "eform.requests" | "payments.payments" | "signature.requests" | "results" | "sms.outbox" | "sms.messages" | "sms.guard" | "api.idempotency" | "webhooks.events" | "webhooks.deliveries" | "logs.shipments" | "audit.entries" | "notifications" | "tasks.timeline";
                                label: string;
                                count: number;
                            }[];
                        }[];
                        legalHolds: number;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestErasure: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    phoneNumber?: string;
                    customerRef?: string;
                } & ({
                    phoneNumber: unknown;
                    customerRef?: never;
                } | {
                    customerRef: unknown;
                    phoneNumber?: never;
                });
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "erasure" | "export";
                        /** @enum {string} */
                        state: "pending" | "running" | "done";
                        /** @enum {string} */
                        subjectKind: "phone" | "customer_ref";
                        requestedBy: string;
                        /** @enum {string} */
                        requestedVia: "console" | "api";
                        createdAt: string;
                        finishedAt: string | null;
                        counts: {
                            [key: string]: number;
                        };
                        held: {
                            requestId: string;
                            since: string;
                        }[];
                        downloadUrl: string | null;
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "erasure" | "export";
                        /** @enum {string} */
                        state: "pending" | "running" | "done";
                        /** @enum {string} */
                        subjectKind: "phone" | "customer_ref";
                        requestedBy: string;
                        /** @enum {string} */
                        requestedVia: "console" | "api";
                        createdAt: string;
                        finishedAt: string | null;
                        counts: {
                            [key: string]: number;
                        };
                        held: {
                            requestId: string;
                            since: string;
                        }[];
                        downloadUrl: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getErasureRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "erasure" | "export";
                        /** @enum {string} */
                        state: "pending" | "running" | "done";
                        /** @enum {string} */
                        subjectKind: "phone" | "customer_ref";
                        requestedBy: string;
                        /** @enum {string} */
                        requestedVia: "console" | "api";
                        createdAt: string;
                        finishedAt: string | null;
                        counts: {
                            [key: string]: number;
                        };
                        held: {
                            requestId: string;
                            since: string;
                        }[];
                        downloadUrl: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has no request with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestExport: {
        parameters: {
            query?: never;
            header?: {
                /** @description The same key and body within 24 h answers the first answer and does nothing again. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    phoneNumber?: string;
                    customerRef?: string;
                } & ({
                    phoneNumber: unknown;
                    customerRef?: never;
                } | {
                    customerRef: unknown;
                    phoneNumber?: never;
                });
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "erasure" | "export";
                        /** @enum {string} */
                        state: "pending" | "running" | "done";
                        /** @enum {string} */
                        subjectKind: "phone" | "customer_ref";
                        requestedBy: string;
                        /** @enum {string} */
                        requestedVia: "console" | "api";
                        createdAt: string;
                        finishedAt: string | null;
                        counts: {
                            [key: string]: number;
                        };
                        held: {
                            requestId: string;
                            since: string;
                        }[];
                        downloadUrl: string | null;
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "erasure" | "export";
                        /** @enum {string} */
                        state: "pending" | "running" | "done";
                        /** @enum {string} */
                        subjectKind: "phone" | "customer_ref";
                        requestedBy: string;
                        /** @enum {string} */
                        requestedVia: "console" | "api";
                        createdAt: string;
                        finishedAt: string | null;
                        counts: {
                            [key: string]: number;
                        };
                        held: {
                            requestId: string;
                            since: string;
                        }[];
                        downloadUrl: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. INVALID_BODY: The body is not JSON. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description IDEMPOTENCY_CONFLICT: The Idempotency-Key was used with another request in the last 24 hours. IDEMPOTENCY_IN_PROGRESS: The first request with this Idempotency-Key is still running; Retry-After says when to ask again. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description BODY_TOO_LARGE: The body is larger than 1 MB. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body is not sent as JSON (Content-Type application/json, any charset, or a +json type). */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getExportRequest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        /** @enum {string} */
                        kind: "erasure" | "export";
                        /** @enum {string} */
                        state: "pending" | "running" | "done";
                        /** @enum {string} */
                        subjectKind: "phone" | "customer_ref";
                        requestedBy: string;
                        /** @enum {string} */
                        requestedVia: "console" | "api";
                        createdAt: string;
                        finishedAt: string | null;
                        counts: {
                            [key: string]: number;
                        };
                        held: {
                            requestId: string;
                            since: string;
                        }[];
                        downloadUrl: string | null;
                    };
                };
            };
            /** @description VALIDATION_FAILED: The body or a parameter is not valid; `fields` names them. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_API_KEY: Missing, wrong or rotated secret key. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: The calling account has no request with this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: More requests than the account's rate limit (by default 20 a second, bursts of 40; see the RateLimit-Policy and RateLimit header fields and Retry-After), or too many wrong secret keys from this address. */
            429: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DATABASE_BUSY: The database had no room for this request now; Retry-After says when to ask again. DATABASE_UNAVAILABLE: The database is briefly unavailable; Retry-After says when to ask again. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
