// A request's Host as every host lookup compares it (custom domains): the name only, lowercase,
// IDNA to ASCII, without the port and without the trailing dot of a fully qualified name.
// `acme.example.` and `ACME.example:443` name the same site as `acme.example`; comparing raw
// headers let a trailing dot step around a domain's owner check.

/** The host name of a Host header, or null when there is none or it is not a host. */
export function hostName(header: string | null | undefined): string | null {
  if (!header) return null;
  let name: string;
  try {
    const url = new URL(`http://${header.trim()}`);
    // anything beyond host[:port] (a path, credentials) is not a Host header
    if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
    name = url.hostname;
  } catch {
    return null;
  }
  if (name.endsWith('.')) name = name.slice(0, -1);
  return name || null;
}
