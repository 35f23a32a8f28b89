import yauzl from 'yauzl';

// Reads a ZIP the way any unzip tool would (yauzl: an independent reader), for the export tests.

export type Entry = { name: string; bytes: Buffer };
export function unzip(bytes: Buffer): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const entries: Entry[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => (entries.push({ name: entry.fileName, bytes: Buffer.concat(chunks) }), zip.readEntry()));
        });
      });
      zip.on('end', () => resolve(entries));
      zip.readEntry();
    });
  });
}
