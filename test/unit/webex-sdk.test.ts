import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as esbuild from 'esbuild';
import path from 'node:path';
import { coreJsShim } from '../../hosts/webex/core-js-shim.mjs';
import { webexSignIn, type WebexApp } from '../../hosts/webex/host';
import { createApi } from '../../src/api/client';
import { makeToken, mockApi } from './helpers';

// The webex entry replaces core-js with a shim (build.mjs). This bundles the real SDK the same
// way and runs it as if inside the Webex macOS client (its native bridge faked), so the SDK's
// initialize handshake, the path that touches core-js, actually runs.

const root = path.resolve(__dirname, '../..');

async function bundleSdk(plugin: esbuild.Plugin): Promise<string> {
  const result = await esbuild.build({
    stdin: {
      contents: "import { Application } from '@webex/embedded-app-sdk'; globalThis.__WebexSdk = { Application };",
      resolveDir: root,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    minify: true,
    metafile: true,
    plugins: [plugin],
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs);
  expect(inputs.some((i) => i.includes('node_modules/core-js/'))).toBe(false);
  return result.outputFiles[0]!.text;
}

/** Loads a bundle into this window and returns a fresh Application class (the SDK is a singleton per load). */
function load(code: string): new () => WebexApp {
  new Function(code)();
  return (globalThis as unknown as { __WebexSdk: { Application: new () => WebexApp } }).__WebexSdk.Application;
}

type Native = { sent: { requestId: string; request: string }[] };

/** The Webex macOS client's side of the bridge: answers initialize with the signed-in user. */
function fakeMacClient(token: string): Native {
  const native: Native = { sent: [] };
  Object.defineProperty(navigator, 'userAgent', {
    value: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 WebexTeams',
    configurable: true,
  });
  (window as unknown as { webkit: unknown }).webkit = {
    messageHandlers: {
      webexapp: {
        postMessage(json: string) {
          const msg = JSON.parse(json) as { requestId: string; request: string };
          native.sent.push(msg);
          const reply =
            msg.request === 'application.initialize'
              ? {
                  requestId: msg.requestId,
                  code: 0,
                  data: {
                    application: {
                      displayContext: 'SIDEBAR',
                      sdkVersion: '2.5.0',
                      theme: 'LIGHT',
                      user: { id: 'u1', orgId: 'o1', email: 'owner@acme.test', displayName: 'Olivia Owens', token },
                    },
                  },
                }
              : { requestId: msg.requestId, code: 0, data: {} };
          setTimeout(
            () =>
              (
                window as unknown as { webex: { application: { jsRequestCallback(r: unknown): void } } }
              ).webex.application.jsRequestCallback(reply),
            5,
          );
        },
      },
    },
  };
  return native;
}

let savedUserAgent: PropertyDescriptor | undefined;
beforeEach(() => {
  savedUserAgent = Object.getOwnPropertyDescriptor(navigator, 'userAgent');
});
afterEach(() => {
  delete (window as unknown as { webkit?: unknown }).webkit;
  delete (window as unknown as { webex?: unknown }).webex;
  if (savedUserAgent) Object.defineProperty(navigator, 'userAgent', savedUserAgent);
  else delete (navigator as unknown as { userAgent?: string }).userAgent;
});

describe('Webex SDK bundled with the core-js shim', () => {
  it('constructs, completes the host handshake and yields the user token; the adapter signs in with it', async () => {
    const native = fakeMacClient('jwt-from-webex');
    const Application = load(await bundleSdk(coreJsShim as esbuild.Plugin));
    const app = new Application();
    await app.onReady();
    expect(native.sent[0]?.request).toBe('application.initialize');
    expect(app.application.states.user?.token).toBe('jwt-from-webex');

    const api = mockApi({ 'POST /api/webex/authenticate': { body: { token: makeToken() } } });
    const result = await webexSignIn({ createApp: () => app, api: createApi({ getToken: () => null }) });
    expect(result.outcome).toBe('token');
    expect(JSON.parse(api.calls[0]!.body)).toEqual({ accessToken: 'jwt-from-webex' });
  });

  it('a shim exporting the bare Promise (the old one) breaks the SDK inside a host: this test would catch it', async () => {
    fakeMacClient('jwt');
    const bare: esbuild.Plugin = {
      name: 'bare-promise-shim',
      setup(build) {
        build.onResolve({ filter: /^core-js(\/|$)/ }, (a) => ({ path: a.path, namespace: 'bare' }));
        build.onLoad({ filter: /.*/, namespace: 'bare' }, () => ({
          contents: 'module.exports = globalThis.Promise;',
          loader: 'js',
        }));
      },
    };
    const Application = load(await bundleSdk(bare));
    expect(() => new Application()).toThrow(TypeError);
  });
});
