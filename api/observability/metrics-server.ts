import http from 'node:http';

export type Rendered = { contentType: string; body: string };

/**
 * GET /metrics on a listener of its own (METRICS_PORT on METRICS_HOST), never the public port:
 * the figures say how busy the server is, which is nobody else's business.
 */
export async function startMetricsServer(
  where: { port: number; host: string },
  render: () => Promise<Rendered>,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    render().then(
      ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
      (err: unknown) =>
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`The metrics could not be gathered: ${err instanceof Error ? err.message : String(err)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where.port, where.host, () => resolve());
  });
  // a scraper's keep-alive connection must not hold up a stop
  server.unref();
  return server;
}
