import dgram from 'node:dgram';

// A small authoritative DNS server on loopback for tests: it answers CNAME, A and TXT questions
// from a table the test controls, NXDOMAIN for unknown names, and SERVFAIL where asked to. Real UDP
// DNS packets (RFC 1035), so the code under test uses node:dns exactly as in production.

/** `txt`: one TXT record per value (values over 255 bytes travel split in strings, as in real DNS). */
export type DnsRecord = { cname: string } | { a: string } | { txt: string[] } | 'servfail';

export type DnsServer = {
  /** '127.0.0.1:port', for DNS_SERVERS */
  address: string;
  records: Map<string, DnsRecord>;
  queries: number;
  close(): Promise<void>;
};

const TYPE_A = 1;
const TYPE_CNAME = 5;
const TYPE_TXT = 16;

/** TXT rdata: the value as length-prefixed character strings of at most 255 bytes. */
function encodeTxt(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let at = 0; at === 0 || at < bytes.length; at += 255) {
    const chunk = bytes.subarray(at, at + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

function encodeName(name: string): Buffer {
  const parts = name.replace(/\.$/, '').split('.').filter(Boolean);
  const bytes: number[] = [];
  for (const label of parts) {
    const b = Buffer.from(label, 'ascii');
    bytes.push(b.length, ...b);
  }
  bytes.push(0);
  return Buffer.from(bytes);
}

function readQuestion(msg: Buffer): { name: string; type: number; end: number } {
  let offset = 12;
  const labels: string[] = [];
  while (msg[offset] !== 0) {
    const len = msg[offset]!;
    labels.push(msg.subarray(offset + 1, offset + 1 + len).toString('ascii'));
    offset += len + 1;
  }
  offset += 1;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(offset), end: offset + 4 };
}

function answer(query: Buffer, records: Map<string, DnsRecord>): Buffer {
  const q = readQuestion(query);
  const record = records.get(q.name);
  const rcode = record === undefined ? 3 : record === 'servfail' ? 2 : 0;
  const answers: Buffer[] = [];
  if (record && record !== 'servfail') {
    const rrs: Array<[number, Buffer]> = [];
    if ('cname' in record && (q.type === TYPE_CNAME || q.type === TYPE_A || q.type === TYPE_TXT)) {
      rrs.push([TYPE_CNAME, encodeName(record.cname)]);
    } else if ('a' in record && q.type === TYPE_A) {
      rrs.push([TYPE_A, Buffer.from(record.a.split('.').map(Number))]);
    } else if ('txt' in record && q.type === TYPE_TXT) {
      for (const value of record.txt) rrs.push([TYPE_TXT, encodeTxt(value)]);
    }
    for (const [type, rdata] of rrs) {
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
      rr.writeUInt16BE(type, 2);
      rr.writeUInt16BE(1, 4); // IN
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(rdata.length, 10);
      answers.push(rr, rdata);
    }
  }
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  const rd = query[2]! & 0x01;
  header[2] = 0x80 | 0x04 | rd; // QR, AA, RD copied
  header[3] = 0x80 | rcode; // RA
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length / 2, 6);
  return Buffer.concat([header, query.subarray(12, q.end), ...answers]);
}

export async function startDnsServer(initial: Record<string, DnsRecord> = {}): Promise<DnsServer> {
  const socket = dgram.createSocket('udp4');
  const records = new Map(Object.entries(initial).map(([k, v]) => [k.toLowerCase(), v]));
  const server: DnsServer = {
    address: '',
    records,
    queries: 0,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (msg, rinfo) => {
    server.queries++;
    try {
      socket.send(answer(msg, records), rinfo.port, rinfo.address);
    } catch {
      // a packet we cannot read gets no answer, like a real server would drop it
    }
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', () => resolve()));
  server.address = `127.0.0.1:${socket.address().port}`;
  return server;
}
