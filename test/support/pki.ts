import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A small public-key infrastructure made at test time with Debian's openssl: one root CA that
// issues the provider's signing certificate (RSA 2048), an account's own certificate (P-256),
// a time-stamping authority's certificate (extendedKeyUsage critical,timeStamping) and a CRL.
// Nothing here is ours: the seals we make are checked against what openssl made.

export type TestPki = {
  dir: string;
  /** the root CA certificate (PEM) and its file */
  caPem: string;
  caFile: string;
  /** the provider's certificate as an operator configures it: PKCS#12 file and passphrase */
  provider: { p12File: string; passphrase: string; subject: string };
  /** an account's own certificate (P-256) with the chain, as an admin uploads it */
  account: { p12: Buffer; password: string; subject: string };
  /** the TSA's key, certificate and openssl ts configuration */
  tsa: { keyFile: string; certFile: string; configFile: string };
  /** the CA's CRL (DER) as the loopback peer serves it */
  crlFile: string;
  /** an NSS database (certutil) that trusts the root CA, for pdfsig -nssdir */
  nssDir: string;
  /** issues one more certificate from the root CA; `ext` is an openssl extension section body */
  issue(
    name: string,
    subject: string,
    ext: string,
    key?: 'rsa' | 'ec' | 'rsa1024',
    days?: number,
  ): { keyFile: string; certFile: string };
  /** a PKCS#12 of a key and certificates */
  pkcs12(keyFile: string, certFiles: string[], password: string): Buffer;
  remove(): void;
};

const openssl = (cwd: string, args: string[], input?: string) =>
  execFileSync('openssl', args, { cwd, input, stdio: ['pipe', 'pipe', 'pipe'] });

/** `crlUrl`: where the certificates say their CRL is (the loopback peer serves crlFile there). */
export function makeTestPki(crlUrl: string): TestPki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pki-'));
  const w = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
  openssl(dir, [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '3650',
    '-subj',
    '/CN=Switchboard Test Root CA/O=Switchboard tests',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  w('index.txt', '');
  w('crlnumber', '01\n');
  w(
    'ca.cnf',
    `[ca]\ndefault_ca = test\n[test]\ndatabase = ${dir}/index.txt\ncrlnumber = ${dir}/crlnumber\ndefault_md = sha256\ndefault_crl_days = 30\ncertificate = ${dir}/ca.crt\nprivate_key = ${dir}/ca.key\n`,
  );

  let serial = 0x1000;
  const issue: TestPki['issue'] = (name, subject, ext, key = 'rsa', days = 365) => {
    const keyArgs =
      key === 'ec'
        ? ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']
        : ['-newkey', key === 'rsa1024' ? 'rsa:1024' : 'rsa:2048'];
    openssl(dir, ['req', ...keyArgs, '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
    w(
      `${name}.ext`,
      `${ext}\ncrlDistributionPoints = URI:${crlUrl}\nauthorityKeyIdentifier = keyid\nsubjectKeyIdentifier = hash\n`,
    );
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-set_serial',
      String(serial++),
      '-out',
      `${name}.crt`,
      '-days',
      String(days),
      '-extfile',
      `${name}.ext`,
    ]);
    return { keyFile: path.join(dir, `${name}.key`), certFile: path.join(dir, `${name}.crt`) };
  };
  const pkcs12: TestPki['pkcs12'] = (keyFile, certFiles, password) => {
    const [leaf, ...chain] = certFiles;
    const out = path.join(dir, `p12-${serial++}.p12`);
    openssl(dir, [
      'pkcs12',
      '-export',
      '-inkey',
      keyFile,
      '-in',
      leaf!,
      ...chain.flatMap((c) => ['-certfile', c]),
      '-out',
      out,
      '-passout',
      `pass:${password}`,
    ]);
    return fs.readFileSync(out);
  };

  const signing = 'basicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature,nonRepudiation';
  const provider = issue('provider', '/CN=Switchboard Provider Signing/O=Switchboard tests', signing);
  fs.writeFileSync(
    path.join(dir, 'provider.p12'),
    pkcs12(provider.keyFile, [provider.certFile, path.join(dir, 'ca.crt')], 'provider-pass'),
  );
  const account = issue('account', '/CN=Acme Insurance Signing/O=Acme Insurance', signing, 'ec');
  const tsa = issue(
    'tsa',
    '/CN=Switchboard Test TSA/O=Switchboard tests',
    'basicConstraints = CA:FALSE\nkeyUsage = critical,digitalSignature\nextendedKeyUsage = critical,timeStamping',
  );
  w('tsaserial', '01\n');
  w(
    'tsa.cnf',
    `[tsa]\ndefault_tsa = test_tsa\n[test_tsa]\ndir = ${dir}\nserial = ${dir}/tsaserial\nsigner_cert = ${dir}/tsa.crt\ncerts = ${dir}/ca.crt\nsigner_key = ${dir}/tsa.key\nsigner_digest = sha256\ndefault_policy = 1.3.6.1.4.1.99999.1\ndigests = sha256, sha384, sha512\naccuracy = secs:1\nordering = no\ntsa_name = no\ness_cert_id_chain = no\ness_cert_id_alg = sha256\n`,
  );
  openssl(dir, ['ca', '-gencrl', '-config', 'ca.cnf', '-out', 'ca.crl.pem']);
  openssl(dir, ['crl', '-in', 'ca.crl.pem', '-outform', 'DER', '-out', 'ca.crl']);

  const nssDir = path.join(dir, 'nss');
  fs.mkdirSync(nssDir);
  execFileSync('certutil', ['-N', '-d', `sql:${nssDir}`, '--empty-password']);
  execFileSync('certutil', [
    '-A',
    '-d',
    `sql:${nssDir}`,
    '-n',
    'Switchboard Test Root CA',
    '-t',
    'CT,C,C',
    '-i',
    path.join(dir, 'ca.crt'),
  ]);

  return {
    dir,
    caPem: fs.readFileSync(path.join(dir, 'ca.crt'), 'utf8'),
    caFile: path.join(dir, 'ca.crt'),
    provider: { p12File: path.join(dir, 'provider.p12'), passphrase: 'provider-pass', subject: 'Switchboard Provider Signing' },
    account: {
      p12: pkcs12(account.keyFile, [account.certFile, path.join(dir, 'ca.crt')], 'account-pass'),
      password: 'account-pass',
      subject: 'Acme Insurance Signing',
    },
    tsa: { keyFile: tsa.keyFile, certFile: tsa.certFile, configFile: path.join(dir, 'tsa.cnf') },
    crlFile: path.join(dir, 'ca.crl'),
    nssDir,
    issue,
    pkcs12,
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
