/** Discord-style ids: a millisecond timestamp since Discord's epoch, shifted, plus a counter. */
let counter = 0;
export const snowflake = (): string =>
  ((BigInt(Date.now() - 1420070400000) << 22n) | BigInt(++counter % 4096)).toString();
