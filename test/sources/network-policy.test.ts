import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isRastileError } from '../../src/errors.ts';
import { assertUrlAllowed, isMetadataAddress, isPrivateAddress, type NetworkPolicy } from '../../src/sources/network-policy.ts';

describe('address classification', () => {
  const blocked = [
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '169.254.0.1',
    '100.64.0.1',
    '100.127.255.255',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a9fe:a9fe',
  ];
  const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '2606:4700::1111'];
  for (const ip of blocked) it(`blocks ${ip}`, () => assert.equal(isPrivateAddress(ip), true));
  for (const ip of allowed) it(`allows ${ip}`, () => assert.equal(isPrivateAddress(ip), false));

  it('knows the metadata endpoints', () => {
    for (const ip of ['169.254.169.254', '100.100.100.200', 'fd00:ec2::254', '::ffff:169.254.169.254']) assert.equal(isMetadataAddress(ip), true, ip);
    for (const ip of ['169.254.169.253', '8.8.8.8', 'fd00:ec2::253']) assert.equal(isMetadataAddress(ip), false, ip);
  });
});

describe('assertUrlAllowed', () => {
  const dns: Record<string, string[]> = {
    'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'rebind.example': ['93.184.216.34', '10.0.0.5'],
    'v6local.example': ['fd12::1'],
  };
  const policy = (allowPrivateHosts: boolean, allowedHosts: string[] = []): NetworkPolicy => ({
    allowPrivateHosts,
    allowedHosts,
    resolveHost: async (h) => {
      const a = dns[h];
      if (a === undefined) throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      return a;
    },
  });
  const outcome = async (url: string, p: NetworkPolicy): Promise<string> => {
    try {
      await assertUrlAllowed(new URL(url), p);
      return 'ok';
    } catch (err) {
      assert.ok(isRastileError(err));
      return err.kind;
    }
  };

  it('refuses private hosts unless allowed', async () => {
    assert.equal(await outcome('http://127.0.0.1:8080/a.tif', policy(false)), 'SourceForbidden');
    assert.equal(await outcome('http://[::1]/a.tif', policy(false)), 'SourceForbidden');
    assert.equal(await outcome('http://2130706433/a.tif', policy(false)), 'SourceForbidden'); // 127.0.0.1 as a number
    assert.equal(await outcome('http://0x7f.1/a.tif', policy(false)), 'SourceForbidden');
    assert.equal(await outcome('http://localhost:9/a.tif', policy(false)), 'SourceForbidden');
    assert.equal(await outcome('http://rebind.example/a.tif', policy(false)), 'SourceForbidden'); // one private answer is enough
    assert.equal(await outcome('http://v6local.example/a.tif', policy(false)), 'SourceForbidden');
    assert.equal(await outcome('https://public.example/a.tif', policy(false)), 'ok');
    assert.equal(await outcome('http://127.0.0.1:8080/a.tif', policy(true)), 'ok');
    assert.equal(await outcome('http://rebind.example/a.tif', policy(false, ['rebind.example'])), 'ok');
    assert.equal(await outcome('http://nowhere.example/a.tif', policy(false)), 'UpstreamError');
  });

  it('always refuses metadata endpoints and non-http schemes', async () => {
    for (const p of [policy(false), policy(true)]) {
      assert.equal(await outcome('http://169.254.169.254/latest/meta-data/', p), 'SourceForbidden');
      assert.equal(await outcome('http://[fd00:ec2::254]/', p), 'SourceForbidden');
      assert.equal(await outcome('http://metadata.google.internal/computeMetadata/v1/', p), 'SourceForbidden');
      assert.equal(await outcome('http://100.100.100.200/', p), 'SourceForbidden');
      assert.equal(await outcome('ftp://public.example/a.tif', p), 'SourceForbidden');
    }
  });
});
