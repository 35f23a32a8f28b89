import { lazy, Suspense, type ComponentProps } from 'react';

// The header's live parts, loaded after the first paint: the first render shows a quiet
// placeholder of the same size, so nothing moves when they arrive.

const load = () => import('./header-live');
const LazyIndicator = lazy(() => load().then((m) => ({ default: m.LiveIndicator })));
const LazyNotifications = lazy(() => load().then((m) => ({ default: m.Notifications })));
const LazyFollowLive = lazy(() => load().then((m) => ({ default: m.FollowLive })));

/** The connection state (a dot); grey until the live layer has loaded, as while connecting. */
export function LiveIndicator() {
  return (
    <Suspense
      fallback={
        <span className="live-indicator live-connecting" aria-hidden="true">
          <span className="live-dot" />
        </span>
      }
    >
      <LazyIndicator />
    </Suspense>
  );
}

/** The bell; an empty space of its size until it has loaded. */
export function Notifications() {
  return (
    <Suspense fallback={<span className="icon-btn" aria-hidden="true" />}>
      <LazyNotifications />
    </Suspense>
  );
}

/** Follows live changes for a component of the first load (the header's credit count). */
export function FollowLive(props: ComponentProps<typeof LazyFollowLive>) {
  return (
    <Suspense fallback={null}>
      <LazyFollowLive {...props} />
    </Suspense>
  );
}
