import { tenantPolicy } from './policy';

// Journeys: several of the apps' sends chained behind one SMS and one link. A template is the
// admin's ordered list of steps; a journey is one sending of it (its steps copied, so editing the
// template never changes a journey under way). Each step's task is an ordinary task of its app,
// in that app's own table: journey_steps only links it to its journey. The journey's timeline is
// task_events (app 'journeys'), and its changes reach the console's live stream like a task's.

export const id = '1400_journeys';

export const sql = `
create table journey_templates (
  id uuid primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  name text not null check (length(name) between 1 and 120),
  steps jsonb not null,
  -- what a failed or expired step does: end the journey, or pause it until an agent resends that step
  on_failure text not null check (on_failure in ('end', 'pause')),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  archived_at timestamptz
);
create index journey_templates_by_account on journey_templates (account_id, updated_at desc, id desc);
${tenantPolicy('journey_templates')}

create table journeys (
  id uuid primary key,
  account_id uuid not null references accounts(id) on delete cascade,
  template_id uuid,
  name text not null,
  steps jsonb not null,
  on_failure text not null check (on_failure in ('end', 'pause')),
  phone_number text not null,
  customer_ref text,
  customer_name text,
  agent text,
  locale text,
  status text not null check (status in ('active', 'paused', 'completed', 'failed', 'expired', 'canceled')),
  current_step integer not null default 0,
  sends integer not null default 1,
  failure_reason text,
  -- the journey's link, encrypted (its token is stored hashed, like every link): a step that
  -- leaves for another site (Stripe Checkout) is told to send the caller back to it
  link_encrypted text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  expires_at timestamptz not null,
  ended_at timestamptz
);
create index journeys_page on journeys (account_id, created_at desc, id desc);
create index journeys_by_status on journeys (account_id, status, created_at desc, id desc);
${tenantPolicy('journeys')}

create table journey_steps (
  account_id uuid not null references accounts(id) on delete cascade,
  journey_id uuid not null references journeys(id) on delete cascade,
  position integer not null check (position >= 0),
  app text not null,
  -- waiting: not reached; sending: its app's send is running; the rest say how it went
  status text not null check (status in ('waiting', 'sending', 'active', 'done', 'skipped', 'failed', 'expired')),
  task_id uuid,
  -- the step's own link token, encrypted: the journey's page opens the step's page with it
  token_encrypted text,
  attempts integer not null default 0,
  started_at timestamptz,
  ended_at timestamptz,
  -- when the sweep last looked at this step's task (a cursor of its own: the journeys table's
  -- live triggers would announce a change on every look)
  checked_at timestamptz,
  primary key (journey_id, position)
);
create index journey_steps_by_task on journey_steps (account_id, task_id) where task_id is not null;
${tenantPolicy('journey_steps')}

create trigger journeys_live_added after insert on journeys
  referencing new table as changed for each statement execute function live_tasks_changed('journeys');
create trigger journeys_live_changed after update on journeys
  referencing new table as changed for each statement execute function live_tasks_changed('journeys');
`;
