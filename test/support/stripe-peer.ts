// The tests' loopback Stripe is the development stand-in itself (api/dev-stripe): one
// implementation, so what `npm start` offers is what the tests prove.
export * from '../../api/dev-stripe/peer';
