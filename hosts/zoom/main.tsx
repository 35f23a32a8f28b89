import { mountConsole } from '../../src/main';
import { fallbackEmbeddedHost } from '../embedded';

// The Zoom Apps SDK sign-in arrives with the embedded-hosts work; until then the entry mounts
// the same core and signs in with a sign-in link's or a stored token.
mountConsole(fallbackEmbeddedHost('zoom'));
