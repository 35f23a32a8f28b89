import { isAppId, type AppId } from '../../api/contract/apps';

// A "Start free trial" link can name an app (/sign-up?app=passkeys). The app is remembered for
// this tab while the person signs in (the identity provider's round trip loses the query), and
// taken once the console has a session.

const KEY = 'switchboard.startApp';

/** Remembers the `app` query parameter, if it names an app. */
export function rememberAppFromQuery(search: string): void {
  const app = new URLSearchParams(search).get('app');
  if (app && isAppId(app)) {
    try {
      sessionStorage.setItem(KEY, app);
    } catch {
      /* storage unavailable (private mode): the link just opens the console */
    }
  }
}

/** The remembered app, forgotten as it is taken. */
export function takeAppToStart(): AppId | null {
  try {
    const app = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    return app && isAppId(app) ? app : null;
  } catch {
    return null;
  }
}
