import { describe, expect, it } from 'vitest';
import { APPS } from '../../../api/contract/apps';
import { pageFor } from '../../../src/pages/apps';

// A route added to an app's definition shows in its tabs and links, so it must open a real page:
// there is no stand-in page to fall back to.
describe('every app route opens a page', () => {
  for (const app of APPS) {
    it(`${app.title}: every route in its definition has a page`, () => {
      const missing = app.routes.filter((route) => !pageFor(app, route));
      expect(missing).toEqual([]);
    });
  }

  it('an unknown route of an app has no page (it shows Not found)', () => {
    expect(pageFor(APPS[0]!, 'no-such-page')).toBeUndefined();
  });
});
