import { describe, expect, it } from 'vitest';
import { sealState } from '../../src/pages/apps/document-signature/signatures';

// The console says which PAdES level a seal reached (the certificate page in the PDF is written
// before signing and says only what may follow).
describe('the seal level a request shows', () => {
  it('names the level reached and what it means, and nothing before the seal', () => {
    expect(sealState({ sealLevel: null, sealedBy: null })).toBeNull();
    expect(sealState({ sealLevel: 'B-B', sealedBy: 'Acme Signing' })).toBe(
      'Sealed by Acme Signing at PAdES B-B: no trusted timestamp; the file ends with the signature.',
    );
    expect(sealState({ sealLevel: 'B-T', sealedBy: 'Acme Signing' })).toContain(
      'PAdES B-T: a trusted timestamp; the file ends with the signature',
    );
    expect(sealState({ sealLevel: 'B-LTA', sealedBy: 'Acme Signing' })).toContain(
      'under a document time-stamp over the whole file',
    );
  });
});
