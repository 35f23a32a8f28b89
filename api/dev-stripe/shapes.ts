// The whole shape of each Stripe object the stand-in answers. Stripe's objects carry every field
// of their type on every answer (null when it does not apply); code tested against a stand-in that
// left fields out would meet `undefined` where Stripe gives null, or miss a field altogether.
// The stand-in's objects are made here: its own values for what it plays, and for the rest the
// value a plain test-mode object has (null, false, an empty list). test/api/stripe-conformance
// checks every object against Stripe's published fixture of its type (../shared/conformance).

type Fields = Record<string, unknown>;

const address = () => ({ city: null, country: null, line1: null, line2: null, postal_code: null, state: null });
const emptyList = (url: string) => ({ object: 'list', data: [], has_more: false, url });

const BLANK: Record<string, (o: Fields) => Fields> = {
  customer: () => ({
    address: null, balance: 0, created: 0, currency: null, default_source: null, delinquent: false, description: null, discount: null, email: null,
    invoice_prefix: null, invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null }, livemode: false, metadata: {}, name: null,
    next_invoice_sequence: 1, phone: null, preferred_locales: [], shipping: null, tax_exempt: 'none', test_clock: null,
  }),
  price: (o) => ({
    active: true, billing_scheme: 'per_unit', created: 0, currency: 'usd', custom_unit_amount: null, livemode: false, lookup_key: null, metadata: {}, nickname: null,
    product: null, recurring: null, tax_behavior: 'unspecified', tiers_mode: null, transform_quantity: null, type: o.recurring ? 'recurring' : 'one_time',
    unit_amount: null, unit_amount_decimal: o.unit_amount === undefined || o.unit_amount === null ? null : String(o.unit_amount),
  }),
  product: () => ({
    active: true, created: 0, default_price: null, description: null, images: [], livemode: false, marketing_features: [], metadata: {}, name: '', package_dimensions: null,
    shippable: null, statement_descriptor: null, tax_code: null, unit_label: null, updated: 0, url: null, type: 'service',
  }),
  'checkout.session': () => ({
    after_expiration: null, allow_promotion_codes: null, amount_subtotal: null, amount_total: null, automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null, cancel_url: null, client_reference_id: null, client_secret: null, consent: null, consent_collection: null, created: 0, currency: null,
    custom_fields: [], custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null }, customer: null, customer_creation: null,
    customer_details: null, customer_email: null, expires_at: 0, invoice: null, invoice_creation: null, livemode: false, locale: null, metadata: {}, mode: 'payment',
    payment_intent: null, payment_link: null, payment_method_collection: null, payment_method_configuration_details: null, payment_method_options: {}, payment_method_types: ['card'],
    payment_status: 'unpaid', phone_number_collection: { enabled: false }, recovered_from: null, saved_payment_method_options: null, setup_intent: null,
    shipping_address_collection: null, shipping_cost: null, shipping_options: [], status: 'open', submit_type: null, subscription: null, success_url: null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 }, ui_mode: 'hosted', url: null, adaptive_pricing: null, discounts: [], collected_information: null,
    permissions: null, wallet_options: null, origin_context: null, currency_conversion: null, customer_account: null, integration_identifier: null, managed_payments: null,
  }),
  item: () => ({ amount_discount: 0, amount_subtotal: 0, amount_tax: 0, amount_total: 0, currency: 'usd', description: null, price: null, quantity: 1, metadata: {}, adjustable_quantity: null }),
  subscription: () => ({
    application: null, application_fee_percent: null, automatic_tax: { enabled: false, liability: null, disabled_reason: null }, billing_cycle_anchor: 0, billing_cycle_anchor_config: null,
    cancel_at: null, canceled_at: null, cancellation_details: { comment: null, feedback: null, reason: null }, collection_method: 'charge_automatically', created: 0, currency: 'usd',
    customer: null, days_until_due: null, default_payment_method: null, default_source: null, default_tax_rates: [], description: null, discounts: [], ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } }, items: null, latest_invoice: null, livemode: false, metadata: {}, next_pending_invoice_item_invoice: null,
    on_behalf_of: null, pause_collection: null, payment_settings: null, pending_invoice_item_interval: null, pending_setup_intent: null, pending_update: null, schedule: null,
    start_date: 0, status: 'active', test_clock: null, transfer_data: null, trial_end: null, trial_settings: null, trial_start: null, cancel_at_period_end: false,
    billing_thresholds: null, billing_mode: null, customer_account: null, managed_payments: null, billing_schedules: [],
  }),
  subscription_item: () => ({
    created: 0, discounts: [], metadata: {}, price: null, quantity: 1, subscription: null, tax_rates: [], plan: null, current_period_end: 0, current_period_start: 0, billing_thresholds: null,
  }),
  invoice: (o) => ({
    account_country: 'US', account_name: null, account_tax_ids: null, amount_due: 0, amount_paid: 0, amount_remaining: 0, amount_shipping: 0, application: null, attempt_count: 0,
    attempted: false, auto_advance: false, automatic_tax: { enabled: false, liability: null, status: null, disabled_reason: null, provider: null },
    billing_reason: 'subscription_cycle', collection_method: 'charge_automatically', created: 0, currency: 'usd', custom_fields: null, customer: null, customer_address: null,
    customer_email: null, customer_name: null, customer_phone: null, customer_shipping: null, customer_tax_exempt: 'none', customer_tax_ids: [], default_payment_method: null,
    default_source: null, default_tax_rates: [], description: null, discounts: [], due_date: null, effective_at: null, ending_balance: null, footer: null, from_invoice: null,
    hosted_invoice_url: null, invoice_pdf: null, issuer: { type: 'self' }, last_finalization_error: null, latest_revision: null, lines: emptyList(`/v1/invoices/${String(o.id)}/lines`),
    livemode: false, metadata: {}, next_payment_attempt: null, number: null, on_behalf_of: null, payment_settings: null, period_end: 0, period_start: 0,
    post_payment_credit_notes_amount: 0, pre_payment_credit_notes_amount: 0, receipt_number: null, rendering: null, shipping_cost: null, shipping_details: null, starting_balance: 0,
    statement_descriptor: null, status: 'draft', status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null }, subscription: null,
    subtotal: 0, subtotal_excluding_tax: 0, test_clock: null, total: 0, total_discount_amounts: [], total_excluding_tax: 0, webhooks_delivered_at: null,
    automatically_finalizes_at: null, total_pretax_credit_amounts: [], total_taxes: [], amount_overpaid: 0, parent: null, customer_account: null,
  }),
  'billing_portal.session': () => ({ configuration: 'bpc_standin', created: 0, customer: null, flow: null, livemode: false, locale: null, on_behalf_of: null, return_url: null, url: null, customer_account: null }),
  'billing.meter_event': () => ({ created: 0, event_name: '', identifier: '', livemode: false, payload: {}, timestamp: 0 }),
  payment_intent: (o) => ({
    amount: 0, amount_capturable: 0, amount_details: null, amount_received: 0, application: null, application_fee_amount: null, automatic_payment_methods: null, canceled_at: null,
    cancellation_reason: null, capture_method: 'automatic_async', client_secret: `${String(o.id)}_secret_standin`, confirmation_method: 'automatic', created: 0, currency: 'usd',
    customer: null, description: null, last_payment_error: null, latest_charge: null, livemode: false, metadata: {}, next_action: null, on_behalf_of: null, payment_method: null,
    payment_method_configuration_details: null, payment_method_options: {}, payment_method_types: ['card'], processing: null, receipt_email: null, review: null,
    setup_future_usage: null, shipping: null, statement_descriptor: null, statement_descriptor_suffix: null, status: 'requires_payment_method', transfer_data: null,
    transfer_group: null, source: null, excluded_payment_method_types: null, customer_account: null, managed_payments: null,
  }),
  charge: (o) => ({
    amount: 0, amount_captured: Number(o.amount ?? 0), amount_refunded: 0, application: null, application_fee: null, application_fee_amount: null, balance_transaction: null,
    billing_details: { address: address(), email: null, name: null, phone: null, tax_id: null }, calculated_statement_descriptor: null, captured: true, created: 0,
    currency: 'usd', customer: null, description: null, disputed: false, failure_balance_transaction: null, failure_code: null, failure_message: null, fraud_details: {},
    livemode: false, metadata: {}, on_behalf_of: null, outcome: null, paid: true, payment_intent: null, payment_method: null, payment_method_details: null, receipt_email: null,
    receipt_number: null, receipt_url: null, refunded: false, refunds: emptyList(`/v1/charges/${String(o.id)}/refunds`), review: null, shipping: null, source_transfer: null,
    statement_descriptor: null, statement_descriptor_suffix: null, status: 'succeeded', transfer_data: null, transfer_group: null, source: null,
  }),
  refund: () => ({
    amount: 0, balance_transaction: null, charge: null, created: 0, currency: 'usd', destination_details: null, metadata: {}, payment_intent: null, reason: null,
    receipt_number: null, source_transfer_reversal: null, status: 'succeeded', transfer_reversal: null, customer: null, customer_account: null, payment_method: null,
  }),
  event: () => ({ api_version: null, created: 0, data: null, livemode: false, pending_webhooks: 0, request: { id: null, idempotency_key: null }, type: '' }),
  account: (o) => ({
    business_profile: { annual_revenue: null, estimated_worker_count: null, mcc: null, name: null, product_description: null, support_address: null, support_email: null, support_phone: null, support_url: null, url: null, minority_owned_business_designation: null },
    business_type: null, capabilities: { card_payments: 'active', transfers: 'active' }, charges_enabled: true, controller: { type: 'application' }, country: 'US', created: 0,
    default_currency: 'usd', details_submitted: true, email: null, external_accounts: emptyList(`/v1/accounts/${String(o.id)}/external_accounts`), future_requirements: null,
    metadata: {}, payouts_enabled: true, requirements: null,
    settings: { bacs_debit_payments: null, branding: null, card_issuing: null, card_payments: null, dashboard: { display_name: null, timezone: 'Etc/UTC' }, invoices: null, payments: null, payouts: null, sepa_debit_payments: null },
    tos_acceptance: { date: null, ip: null, user_agent: null }, type: 'standard',
  }),
};

/** `fields` completed to the whole Stripe shape of its type (fields given win; unknown types as given). */
export function shaped<T extends Fields & { object: string }>(fields: T): T & Fields {
  const blank = BLANK[fields.object];
  return blank ? ({ ...blank(fields), ...fields } as T & Fields) : fields;
}

/** Whether the stand-in makes this type in its whole shape. */
export const shapedTypes = (): string[] => Object.keys(BLANK);
