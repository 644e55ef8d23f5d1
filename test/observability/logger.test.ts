/**
 * The logger's two lines of defence: known secret shapes by pattern, and known secrets by value, verbatim (the
 * deployment's own for good, accepted keys until forgotten, a submitted value only in its own request's lines).
 */
import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { createLogger, logMask, maskSecrets, maskVerbatim } from '../../src/observability/logger.js';

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

it('masks a value only in the log lines written while its own work runs', async () => {
  const typed = 'Nk3pW8rT2vXq6LmZ9bYc';
  const { logger, lines } = capture();
  await logMask.within(typed, async () => {
    await Promise.resolve();
    logger.info({ form: { key: typed } }, `checking ${typed}`);
  });
  logger.info({}, `elsewhere ${typed}`);
  expect(lines[0]).not.toContain(typed);
  expect(lines[0]).toContain('[redacted]');
  expect(lines[1]).toContain(`elsewhere ${typed}`);
});

it('masks an accepted key everywhere until it is forgotten; configured secrets stay masked', () => {
  const key = 'Hs4dQ9wE1rT7yU3iO5pA';
  const configured = 'Jk2lM8nB4vC6xZ0qW1eR';
  const { logger, lines } = capture();
  maskVerbatim(configured);
  logMask.accept(key);
  logMask.accept(configured);
  logger.info({}, `${key} ${configured}`);
  logMask.forget(key);
  logMask.forget(configured);
  logger.info({}, `${key} ${configured}`);
  expect(lines[0]).not.toContain(key);
  expect(lines[1]).toContain(key);
  expect(lines[1]).not.toContain(configured);
});
