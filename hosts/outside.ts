/**
 * True when the page is a plain tab of a desktop or mobile browser: not framed (the Zoom and
 * Webex web clients frame their apps) and without any of the native bridges the desktop and mobile
 * clients inject (WebView2, WebKit message handlers, Android, CEF, RoomOS). These are the checks
 * both SDKs make to find their host (@zoom/appssdk detectBrowser, Webex Application
 * detectEnvironment); neither SDK can sign in when all of them fail, so the entry says where it
 * runs instead of trying.
 */
export function isOutsideDesktopClient(win: Window = window): boolean {
  type Bridges = {
    chrome?: { webview?: unknown };
    webkit?: { messageHandlers?: unknown };
    android?: unknown;
    webexAppExtensions?: unknown;
    roomos?: unknown;
  };
  const w = win as Window & Bridges;
  let framed: boolean;
  try {
    framed = w.parent !== w || w.top !== w;
  } catch {
    framed = true;
  }
  if (framed) return false;
  if (w.chrome?.webview || w.webkit?.messageHandlers || w.android || w.webexAppExtensions || w.roomos) return false;
  const ua = w.navigator.userAgent;
  // The Webex iOS webview and the macOS client's webview do not name a browser
  if (/WBX_iOS|webex/i.test(ua)) return false;
  return /Chrome|Firefox|Safari/.test(ua);
}
