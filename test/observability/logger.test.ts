/** The logger's two lines of defence: known secret shapes by pattern, and known secrets by value, verbatim. */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger, maskSecrets, maskVerbatim } from '../../src/observability/logger.js';

function capture() {
  const lines: string[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: new Writable({
      write(chunk, _e, cb) {
        lines.push(String(chunk));
        cb();
      },
    }),
  });
  return { logger, lines };
}

it('masks a registered secret verbatim wherever it appears, whatever its shape', () => {
  const secret = 'Zt81qVw0LmS9xKc4Pa7NdE2';
  const { logger, lines } = capture();
  logger.debug({ payload: { view: { state: `{"value":"${secret}"}` } } }, `got ${secret} in a form`);
  expect(lines.join('')).toContain(secret); // unknown yet: no pattern knows this shape
  maskVerbatim(secret);
  logger.debug({ payload: { view: { state: `{"value":"${secret}"}` } } }, `got ${secret} in a form`);
  expect(lines[1]).not.toContain(secret);
  expect(lines[1]).toContain('[redacted]');
});

it('leaves short values alone (they would mangle ordinary words) and still masks known shapes', () => {
  maskVerbatim('abc');
  expect(maskSecrets('abc is fine')).toBe('abc is fine');
  expect(maskSecrets('key fl_live_0123456789abcdef here')).not.toContain('0123456789abcdef');
});
