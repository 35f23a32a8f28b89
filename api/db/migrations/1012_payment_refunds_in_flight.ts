// A refund is reserved on its payment before Stripe is asked, and the reservation is settled or
// given back after: parallel refunds each see what the others are giving back, without a
// transaction held open across the call to Stripe (which sends its webhook meanwhile).
export const id = '1012_payment_refunds_in_flight';
export const sql = `
alter table payments add column refunding_amount integer not null default 0
  check (refunding_amount >= 0);
`;
