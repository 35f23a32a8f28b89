import createClient from 'openapi-fetch';
import type { paths } from './schema';

// A client typed from the server's own /api/v1/openapi.json (schema.d.ts, made by openapi-typescript;
// test/api/typed-client.test.ts keeps it current). The calls the server takes compile and run; the
// calls it refuses must not compile: each stands under a `@ts-expect-error`, which tsc reports as
// unused, failing the typecheck, the day the document lets such a call through.

export type V1Client = ReturnType<typeof createClient<paths>>;

export function v1Client(baseUrl: string, secretKey: string): V1Client {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${secretKey}` } });
}

/** Calls the server takes: a passcode sent, read, checked with a wrong code and cancelled; a payment that is not there. */
export async function goodCalls(client: V1Client, phoneNumber: string) {
  const sent = await client.POST('/otp/send', { body: { phoneNumber, customerRef: 'CUST-TYPED', locale: 'en' } });
  const id = sent.data!.id;
  const read = await client.GET('/otp/{id}', { params: { path: { id } } });
  const checked = await client.POST('/otp/check', { body: { id, code: '000000' } });
  // a cancel needs no body (its agent is optional): the typed client does not ask for one
  const cancelled = await client.POST('/otp/{id}/cancel', { params: { path: { id } } });
  const missing = await client.GET('/payments/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } });
  return { sent, read, checked, cancelled, missing };
}

/**
 * Calls the server refuses with 400, each written as a caller would: none of them compiles. The
 * test runs them too (through `as never`) and shows the server's 400.
 */
export const refusedCalls = {
  sendWithoutPhone: (client: V1Client) =>
    // @ts-expect-error phoneNumber is required
    client.POST('/otp/send', { body: {} }),
  sendWithoutBody: (client: V1Client) =>
    // @ts-expect-error the body (with phoneNumber) is required
    client.POST('/otp/send', {}),
  paymentWithPhoneOnly: (client: V1Client) =>
    // @ts-expect-error a payment needs a productId, or an amount and a description
    client.POST('/payments', { body: { phoneNumber: '+14155550100' } }),
  paymentWithProductAndAmount: (client: V1Client) =>
    client.POST('/payments', {
      // @ts-expect-error a productId and an amount together (here, where tsc reports it once formatted)
      body: { phoneNumber: '+14155550100', productId: 'prod_123', amount: 500, description: 'Deposit' },
    }),
  paymentAmountWithoutDescription: (client: V1Client) =>
    // @ts-expect-error an amount needs its description
    client.POST('/payments', { body: { phoneNumber: '+14155550100', amount: 500 } }),
  signatureWithoutSigner: (client: V1Client) =>
    // @ts-expect-error signerName is required
    client.POST('/signatures', { body: { documentId: '00000000-0000-4000-8000-000000000000', phoneNumber: '+14155550100' } }),
  enrollmentWithoutCustomer: (client: V1Client) =>
    // @ts-expect-error customerRef is required
    client.POST('/passkeys/enrollments', { body: { phoneNumber: '+14155550100' } }),
  checkWithNumericCode: (client: V1Client) =>
    // @ts-expect-error the code is text (digits), not a number
    client.POST('/otp/check', { body: { id: '00000000-0000-4000-8000-000000000000', code: 123456 } }),
};
