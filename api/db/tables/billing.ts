import type { ColumnType, Generated } from 'kysely';
import type { Timestamp, CreatedAt } from './columns';

// Billing: what each app costs an account, the credit ledger and what Stripe told us. Row types as
// Kysely sees them; the SQL is in api/db/migrations.

export interface AppBillingTable {
  account_id: string;
  app: string;
  status: 'inactive' | 'free-trial' | 'subscription' | 'enterprise' | 'cancelled';
  trial_ends_at: Timestamp | null;
  credits: Generated<number>;
  free_tier: Generated<number>;
  updated_at: Generated<Date>;
  /** when the app last became paid (subscription/enterprise), kept by a trigger; null otherwise */
  paid_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** billing (0800): the Stripe subscription's current period and state */
  period_start: Generated<Date | null>;
  period_end: Generated<Date | null>;
  cancel_at_period_end: Generated<boolean>;
  payment_failed_at: Generated<Date | null>;
  stripe_subscription_id: Generated<string | null>;
  checkout_session_id: Generated<string | null>;
  checkout_url: Generated<string | null>;
}

export interface BillingCustomersTable {
  account_id: string;
  stripe_customer_id: string | null;
  billing_email: string | null;
  updated_at: Generated<Date>;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  processed_at: Generated<Date>;
}

export interface MeterReportsTable {
  id: Generated<number>;
  account_id: string;
  app: string;
  period_start: Date;
  from_credits: number;
  to_credits: number;
  identifier: string;
  created_at: Generated<Date>;
  reported_at: Date | null;
  attempts: Generated<number>;
  last_error: string | null;
}

export interface CreditLedgerTable {
  id: Generated<string>;
  account_id: string;
  app: string;
  task_id: string;
  kind: string;
  units: number;
  ts: CreatedAt;
}
