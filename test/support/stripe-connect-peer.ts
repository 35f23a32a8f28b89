// Stripe Connect on the loopback Stripe: the development stand-in's own code (api/dev-stripe).
export * from '../../api/dev-stripe/connect';
