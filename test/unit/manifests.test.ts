import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { EXAMPLE_PUBLIC_URL, WEBEX_START_PATH, ZOOM_HOME_PATH, webexManifest, zoomManifest } from '../../manifests/index';
import { ZOOM_CAPABILITIES } from '../../hosts/zoom/capabilities';

const root = path.resolve(__dirname, '../..');
const committed = (file: string) => JSON.parse(fs.readFileSync(path.join(root, 'manifests', file), 'utf8'));

describe('host manifests', () => {
  it('the committed example manifests are what the generator makes (run the generator after changing it)', () => {
    expect(committed('zoom-app.example.json')).toEqual(zoomManifest(EXAMPLE_PUBLIC_URL));
    expect(committed('webex-app.example.json')).toEqual(webexManifest(EXAMPLE_PUBLIC_URL));
  });

  it("the Zoom manifest's home URL and domain allow list follow PUBLIC_URL", () => {
    const { manifest } = zoomManifest('https://admin.contoso.test/');
    expect(manifest.features.production_home_uri).toBe('https://admin.contoso.test/zoom/');
    expect(manifest.features.development_home_uri).toBe('https://admin.contoso.test/zoom/');
    expect(manifest.oauth_information.production_redirect_uri).toBe('https://admin.contoso.test/zoom/');
    expect(manifest.features.domain_allow_list.map((d) => d.domain)).toEqual(['admin.contoso.test']);
  });

  it('the Zoom manifest declares exactly the in-client APIs the adapter configures', () => {
    expect(zoomManifest(EXAMPLE_PUBLIC_URL).manifest.features.in_client_feature.zoom_app_api.zoom_app_apis).toEqual(
      [...ZOOM_CAPABILITIES].sort(),
    );
    expect(ZOOM_CAPABILITIES).toContain('getAppContext');
  });

  it("the Webex registration's start page and valid domains follow PUBLIC_URL", () => {
    const m = webexManifest('https://admin.contoso.test:8443');
    expect(m.startPageUrl).toBe('https://admin.contoso.test:8443/webex/');
    expect(m.validDomains).toEqual(['admin.contoso.test:8443']);
    expect(m.whereDoesYourAppWork).toEqual(['Meeting', 'Messaging', 'Sidebar']);
  });

  it('an http PUBLIC_URL is refused: Zoom and Webex load only https pages', () => {
    expect(() => zoomManifest('http://localhost:3000')).toThrow(/https/);
    expect(() => webexManifest('http://localhost:3000')).toThrow(/https/);
  });

  it('the manifest paths are the ones the build serves the host entries at', () => {
    const build = fs.readFileSync(path.join(root, 'build.mjs'), 'utf8');
    expect(build).toMatch(new RegExp(`name: 'zoom', entry: '[^']+', base: '${ZOOM_HOME_PATH}'`));
    expect(build).toMatch(new RegExp(`name: 'webex', entry: '[^']+', base: '${WEBEX_START_PATH}'`));
  });
});
