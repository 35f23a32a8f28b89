import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS, useTestContext } from './helpers';
import { fileLink, putFile, readFile, deleteFile } from '../../api/storage/files';

describe.each(DATABASE_KINDS)('Stored files and signed download links (%s)', (kind) => {
  const t = useTestContext(kind);
  const deps = () => t.deps;
  const store = async (account: 'acme' | 'globex', text: string) => {
    const id = t.account(account).id;
    return t.db.tenant(id, (trx) =>
      putFile(deps(), trx, id, { app: 'e-form', contentType: 'text/plain', bytes: Buffer.from(text) }),
    );
  };

  it('a signed link downloads the file as it was stored, with its name', async () => {
    const file = await store('acme', 'hello');
    expect(file.sha256).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    const res = await t.app.request(
      fileLink(deps(), t.account('acme').id, file.id, { filename: 'hello.txt', disposition: 'attachment' }),
    );
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="hello.txt"');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it("a download keeps its name as the service gave it: 'agreement (signed).pdf', a name in any script through RFC 6266 filename*", async () => {
    const file = await store('acme', '%PDF');
    const id = t.account('acme').id;
    const signed = await t.app.request(
      fileLink(deps(), id, file.id, { filename: 'agreement (signed).pdf', disposition: 'attachment' }),
    );
    expect(signed.headers.get('content-disposition')).toBe('attachment; filename="agreement (signed).pdf"');
    const cyrillic = await t.app.request(
      fileLink(deps(), id, file.id, { filename: 'Договор "A" (signed).pdf', disposition: 'attachment' }),
    );
    expect(cyrillic.headers.get('content-disposition')).toBe(
      `attachment; filename="??????? \\"A\\" (signed).pdf"; filename*=UTF-8''${encodeURIComponent('Договор "A" (signed).pdf').replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`,
    );
    // no header splitting, no paths
    const hostile = await t.app.request(
      fileLink(deps(), id, file.id, { filename: 'a\r\nSet-Cookie: x=1/../b.pdf', disposition: 'attachment' }),
    );
    expect(hostile.headers.get('set-cookie')).toBeNull();
    expect(hostile.headers.get('content-disposition')).toBe('attachment; filename="a__Set-Cookie: x=1_.._b.pdf"');
  });

  it('an expired or altered link is refused', async () => {
    const file = await store('acme', 'secret');
    const link = fileLink(deps(), t.account('acme').id, file.id, { ttlSeconds: 60 });
    const altered = link.slice(0, -2) + (link.endsWith('AA') ? 'BB' : 'AA');
    expect((await t.app.request(altered)).status).toBe(404);
    t.clock.now = new Date(t.clock.now.getTime() + 61_000);
    const expired = await t.app.request(link);
    expect(expired.status).toBe(404);
    expect(((await expired.json()) as { code: string }).code).toBe('LINK_INVALID');
  });

  it("one account never reads another account's file", async () => {
    const file = await store('acme', 'acme only');
    const globex = t.account('globex').id;
    expect(await t.db.tenant(globex, (trx) => readFile(deps(), trx, globex, file.id))).toBeNull();
    expect((await t.app.request(fileLink(deps(), globex, file.id))).status).toBe(404);
  });

  it('a deleted file is gone from its links', async () => {
    const file = await store('acme', 'bye');
    const acme = t.account('acme').id;
    const link = fileLink(deps(), acme, file.id);
    await t.db.tenant(acme, (trx) => deleteFile(deps(), trx, acme, file.id));
    const res = await t.app.request(link);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('FILE_NOT_FOUND');
  });
});
