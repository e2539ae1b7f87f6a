/** LOG_FORMAT: JSON lines by default, pino-pretty's human format on request, anything else refused. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { loggerOptions } from '../../src/http/logger.ts';

describe('loggerOptions', () => {
  it('json by default (no stream: pino writes JSON lines to stdout), level from LOG_LEVEL', () => {
    assert.deepEqual(loggerOptions({}), { level: 'info' });
    assert.deepEqual(loggerOptions({ LOG_LEVEL: 'warn', LOG_FORMAT: 'JSON' }), { level: 'warn' });
  });

  it('pretty: a pino-pretty stream that turns JSON lines into readable text', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const o = loggerOptions({ LOG_FORMAT: 'pretty' }, sink) as { level: string; stream: Writable };
    assert.equal(o.level, 'info');
    pino({ level: 'info' }, o.stream).info({ route: '/cog/info' }, 'hello there');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.match(text, /INFO/);
    assert.match(text, /hello there/);
    assert.match(text, /route: "\/cog\/info"/);
    assert.doesNotMatch(text, /^\{/, 'not JSON');
  });

  it('refuses an unknown format', () => {
    assert.throws(() => loggerOptions({ LOG_FORMAT: 'xml' }), /LOG_FORMAT/);
  });
});
