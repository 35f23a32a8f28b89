// The Zoom Apps SDK is configured with this fixed list, and the app's manifest declares the same
// list as its in-client APIs (manifests/index.ts), so the two cannot disagree.

/** The SDK API version we speak; getAppContext needs a 0.16.5+ SDK build, configured as 0.16.0. */
export const ZOOM_SDK_API_VERSION = '0.16.0';

export const ZOOM_CAPABILITIES = ['getAppContext', 'getRunningContext', 'getSupportedJsApis', 'openUrl'] as const;
export type ZoomCapability = (typeof ZOOM_CAPABILITIES)[number];
