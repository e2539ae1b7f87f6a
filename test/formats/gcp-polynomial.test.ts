import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Gcp } from '../../src/formats/tiff/gcp-fit.ts';
import { gcpPolynomial } from '../../src/formats/tiff/gcp-polynomial.ts';

const close = (got: number[], want: number[], tol: number, what: string) => {
  for (let i = 0; i < want.length; i++) assert.ok(Math.abs(got[i] - want[i]) <= tol, `${what}[${i}]: ${got[i]} vs ${want[i]}`);
};
const gcp = (pixel: number, line: number, x: number, y: number): Gcp => ({ pixel, line, x, y, z: 0 });

describe("GCP polynomial (rasterio 1.3 GCPTransformer = GDAL 3.6's GCP transformer, order 0)", () => {
  // 12 GCPs, a curved field with noise (scripted in the h9b report): GDAL picks order 2
  const twelve = [
    gcp(0, 0, 499999.3, 4199997.5),
    gcp(0, 40, 500122.1, 4199198.0),
    gcp(0, 80, 500237.2, 4198398.5),
    gcp(50, 0, 501000.0, 4200104.0),
    gcp(50, 40, 501142.8, 4199304.5),
    gcp(50, 80, 501277.9, 4198505.0),
    gcp(100, 0, 502000.7, 4200220.5),
    gcp(100, 40, 502163.5, 4199421.0),
    gcp(100, 80, 502318.6, 4198621.5),
    gcp(150, 0, 503001.4, 4200347.0),
    gcp(150, 40, 503176.5, 4199547.5),
    gcp(150, 80, 503359.3, 4198748.0),
  ];
  it('forward: GCPTransformer(gcps).xy(row, col, offset="ul")', () => {
    const t = gcpPolynomial(twelve);
    assert.ok(t);
    assert.equal(t.order, 2);
    close(t.forward(0, 0), [499999.81333333347, 4199997.500000001], 1e-6, '(0, 0)');
    close(t.forward(33.5, 71.25), [500907.26664990874, 4198643.640124998], 1e-6, '(33.5, 71.25)');
    close(t.forward(149, 3), [502993.31214854174, 4200284.4095], 1e-6, '(149, 3)');
    close(t.forward(75, 40), [501652.02708333294, 4199361.499999997], 1e-6, '(75, 40)');
  });
  it('reverse (fitted on its own, not the inverse): GCPTransformer(gcps).rowcol(x, y, op=identity)', () => {
    const t = gcpPolynomial(twelve);
    assert.ok(t);
    close(t.reverse(501234.5, 4199000.0), [51.90965370805168, 55.444748819657455], 1e-8, 'a');
    close(t.reverse(502900.0, 4198600.0), [127.06699633101496, 84.43676331889353], 1e-8, 'b');
  });
  it("gcps_utm.tif's 6 GCPs: order 2 goes through them (rasterio: xy(91.5, 37.25) off the GCPs)", () => {
    const six = [
      gcp(0, 0, 440000.4, 4649999.7),
      gcp(160, 0, 444799.8, 4650000.5),
      gcp(0, 120, 440000.3, 4646400.2),
      gcp(160, 120, 444799.5, 4646399.9),
      gcp(80, 60, 442400.1, 4648200.4),
      gcp(40, 100, 441199.7, 4646999.8),
    ];
    const t = gcpPolynomial(six);
    assert.ok(t);
    assert.equal(t.order, 2);
    close(t.forward(0, 0), [440000.4, 4649999.7], 1e-6, 'GCP 1');
    close(t.forward(37.25, 91.5), [441117.7455414341, 4647255.331557269], 1e-6, '(37.25, 91.5)');
    close(t.forward(159.75, 119.5), [444792.0297549758, 4646414.933286436], 1e-6, '(159.75, 119.5)');
  });
  it('fewer than 6 GCPs: order 1; too few for the requested order: null', () => {
    const four = [gcp(0, 0, 0, 0), gcp(0, 100, 100, 0), gcp(100, 0, 0, -100), gcp(100, 100, 130, -140)];
    assert.equal(gcpPolynomial(four)?.order, 1);
    assert.equal(gcpPolynomial(four, 2), null);
    assert.equal(gcpPolynomial(four.slice(0, 2)), null);
  });
});
