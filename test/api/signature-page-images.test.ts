import { beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext, type TestContext } from './helpers';
import { makePdf } from '../support/pdfs';
import { ADMIN, AGREE, NAME, SIGNATURE, freshPhone, lastLink, page, signatureTrial, upload, v1 } from '../support/signature-flow';
import { makeJpeg } from '../../api/apps/identity-verification/sample-images';
import type { SigDocument } from '../../api/contract/apps/document-signature';

// The signer's page images: addresses that stay the same for the link's life and name their
// content, cached by the phone for that long (private, immutable), in two widths (srcset); the
// first page at once and the others lazily. They answer only for a usable link of their request.

const jpeg = (shade: number, blocks: number) =>
  `data:image/jpeg;base64,${makeJpeg(blocks, Math.round(blocks * 1.4), () => shade).toString('base64')}`;

async function publishedWithImages(t: TestContext): Promise<SigDocument> {
  const doc = (await (await upload(t, await makePdf(2))).json()) as SigDocument;
  expect(
    (
      await t.call('PUT', `/document-signature/documents/${doc.id}/draft`, {
        as: ADMIN,
        body: { name: 'Service agreement', fields: [SIGNATURE, NAME, AGREE] },
      })
    ).status,
  ).toBe(200);
  const published = await t.call('POST', `/document-signature/documents/${doc.id}/publish`, {
    as: ADMIN,
    body: { pageImages: [jpeg(200, 40), jpeg(180, 40)], pageImagesSmall: [jpeg(200, 20), jpeg(180, 20)] },
  });
  expect(published.status).toBe(201);
  return doc;
}

const imagesIn = (html: string) => [...html.matchAll(/<img ([^>]*)>/g)].map((m) => m[1]!);
const attr = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1]?.replace(/&amp;/g, '&');

describe.each(DATABASE_KINDS)('Signature page images (%s)', (kind) => {
  const t = useTestContext(kind);
  let key: string;
  let doc: SigDocument;
  beforeAll(async () => {
    key = await signatureTrial(t);
    doc = await publishedWithImages(t);
  });

  it('each page has one address for the link’s life, in two widths, cached privately and immutably until the link expires', async () => {
    const phone = freshPhone();
    expect(
      (
        await v1(t, key, 'POST', '/signatures', {
          documentId: doc.id,
          phoneNumber: phone,
          signerName: 'Ada Lovelace',
          expiresInDays: 2,
        })
      ).status,
    ).toBe(201);
    const token = await lastLink(t, phone);
    const first = imagesIn(await (await page(t, token)).text());
    const second = imagesIn(await (await page(t, token)).text());
    expect(first).toHaveLength(2);
    // the same addresses on every visit: nothing for the phone to fetch again
    expect(second).toEqual(first);
    const [one, two] = first as [string, string];
    expect(attr(one, 'loading')).toBe('eager');
    expect(attr(two, 'loading')).toBe('lazy');
    const src = attr(one, 'src')!;
    expect(src).toMatch(new RegExp(`^/c/${token}/pages/1-l-[0-9a-f]{16}\\.jpg$`));
    const srcset = attr(one, 'srcset')!;
    expect(srcset).toMatch(
      new RegExp(`^/c/${token}/pages/1-s-[0-9a-f]{16}\\.jpg 720w, /c/${token}/pages/1-l-[0-9a-f]{16}\\.jpg 1000w$`),
    );
    expect(attr(one, 'sizes')).toBe('(min-width: 32rem) 480px, calc(100vw - 32px)');

    const large = await t.app.request(src);
    expect(large.status).toBe(200);
    expect(large.headers.get('content-type')).toBe('image/jpeg');
    const cache = large.headers.get('cache-control')!;
    expect(cache).toMatch(/^private, max-age=\d+, immutable$/);
    const maxAge = Number(/max-age=(\d+)/.exec(cache)![1]);
    expect(maxAge).toBeGreaterThan(2 * 86_400 - 120);
    expect(maxAge).toBeLessThanOrEqual(2 * 86_400);
    const small = await t.app.request(srcset.split(' ')[0]!);
    expect(small.status).toBe(200);
    // the small one is the phone's: fewer bytes
    expect((await small.arrayBuffer()).byteLength).toBeLessThan((await large.arrayBuffer()).byteLength);
  });

  it('an address answers only for its own content, its own request and a usable link', async () => {
    const phone = freshPhone();
    await v1(t, key, 'POST', '/signatures', { documentId: doc.id, phoneNumber: phone, signerName: 'Grace Hopper' });
    const token = await lastLink(t, phone);
    const src = attr(imagesIn(await (await page(t, token)).text())[0]!, 'src')!;
    // another content hash, another page, a malformed name: nothing, and nothing kept
    const wrongHash = await t.app.request(src.replace(/-l-[0-9a-f]{16}/, '-l-0000000000000000'));
    expect(wrongHash.status).toBe(404);
    expect(wrongHash.headers.get('cache-control')).toBe('no-store');
    expect((await t.app.request(src.replace('/pages/1-', '/pages/3-'))).status).toBe(404);
    expect((await t.app.request(src.replace('.jpg', '.png'))).status).toBe(404);
    // the same address under a token that opens nothing
    expect((await t.app.request(src.replace(token, 'x'.repeat(43)))).status).toBe(404);
    // signed: the link is spent and its images no longer answer
    expect(
      (
        await page(t, token, {
          action: 'sign',
          sig_typed_sig1: 'Grace Hopper',
          field_name1: 'Grace Hopper',
          field_ok1: 'on',
          consent: 'on',
        })
      ).status,
    ).toBe(200);
    expect((await t.app.request(src)).status).toBe(404);
  });

  it('a version published with one width only is offered in that width', async () => {
    const single = (await (await upload(t, await makePdf(1))).json()) as SigDocument;
    await t.call('PUT', `/document-signature/documents/${single.id}/draft`, {
      as: ADMIN,
      body: { name: 'One page', fields: [SIGNATURE] },
    });
    expect(
      (
        await t.call('POST', `/document-signature/documents/${single.id}/publish`, {
          as: ADMIN,
          body: { pageImages: [jpeg(220, 30)] },
        })
      ).status,
    ).toBe(201);
    const refused = await t.call('POST', `/document-signature/documents/${doc.id}/publish`, {
      as: ADMIN,
      body: { pageImages: [jpeg(1, 10)], pageImagesSmall: [jpeg(1, 5), jpeg(1, 5)] },
    });
    expect(refused.status).toBe(409); // nothing to publish: every change of that document is published
    const phone = freshPhone();
    await v1(t, key, 'POST', '/signatures', { documentId: single.id, phoneNumber: phone, signerName: 'Alan Turing' });
    const [img] = imagesIn(await (await page(t, await lastLink(t, phone))).text());
    expect(attr(img!, 'srcset')).toBeUndefined();
    expect(attr(img!, 'src')).toMatch(/\/pages\/1-l-[0-9a-f]{16}\.jpg$/);
  });

  it('small images must come one per page image', async () => {
    const d = (await (await upload(t, await makePdf(2))).json()) as SigDocument;
    await t.call('PUT', `/document-signature/documents/${d.id}/draft`, {
      as: ADMIN,
      body: { name: 'Two pages', fields: [SIGNATURE] },
    });
    const res = await t.call('POST', `/document-signature/documents/${d.id}/publish`, {
      as: ADMIN,
      body: { pageImages: [jpeg(200, 20), jpeg(200, 20)], pageImagesSmall: [jpeg(200, 10)] },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED', fields: { pageImagesSmall: expect.any(String) } });
  });
});
