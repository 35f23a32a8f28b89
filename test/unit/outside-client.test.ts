import { describe, expect, it } from 'vitest';
import { isOutsideDesktopClient } from '../../hosts/outside';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** A window as the entry sees it: top-level unless framed, with whatever bridges a client injects. */
function fakeWindow({
  framed = false,
  userAgent = CHROME,
  ...bridges
}: { framed?: boolean; userAgent?: string } & Record<string, unknown> = {}) {
  const win: Record<string, unknown> = { navigator: { userAgent }, ...bridges };
  win.parent = framed ? {} : win;
  win.top = win.parent;
  return win as unknown as Window;
}

describe('where a desktop-host entry runs', () => {
  it('a plain browser tab is outside the clients', () => {
    expect(isOutsideDesktopClient(fakeWindow())).toBe(true);
    expect(
      isOutsideDesktopClient(fakeWindow({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0' })),
    ).toBe(true);
  });

  it('a frame (the Zoom or Webex web client) is inside', () => {
    expect(isOutsideDesktopClient(fakeWindow({ framed: true }))).toBe(false);
  });

  it("a desktop or mobile client's webview (WebView2, WebKit handlers, Android, CEF, RoomOS) is inside", () => {
    expect(isOutsideDesktopClient(fakeWindow({ chrome: { webview: {} } }))).toBe(false);
    expect(isOutsideDesktopClient(fakeWindow({ webkit: { messageHandlers: {} } }))).toBe(false);
    expect(isOutsideDesktopClient(fakeWindow({ android: {} }))).toBe(false);
    expect(isOutsideDesktopClient(fakeWindow({ webexAppExtensions: () => {} }))).toBe(false);
    expect(isOutsideDesktopClient(fakeWindow({ roomos: {} }))).toBe(false);
  });

  it("Webex's mobile webviews and the macOS client's webview (no browser named) are inside", () => {
    expect(isOutsideDesktopClient(fakeWindow({ userAgent: 'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 WBX_iOS' }))).toBe(false);
    expect(
      isOutsideDesktopClient(
        fakeWindow({ userAgent: 'Mozilla/5.0 (Linux; Android 10; webex 41.8.0.0_0) Chrome/55 Mobile Safari/537.36' }),
      ),
    ).toBe(false);
    expect(
      isOutsideDesktopClient(
        fakeWindow({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)' }),
      ),
    ).toBe(false);
  });
});
