const alphabet = '234567abcdefghijklmnopqrstuvwxyz';
let lastMicros = 0n;
const clockId = BigInt(Math.floor(Math.random() * 1024));

/**
 * A record key in the AT Protocol's TID format: microseconds since the epoch and a clock id,
 * base32-sortable, 13 characters. Strictly increasing within this process.
 */
export function nextTid(now = Date.now()): string {
  let micros = BigInt(now) * 1000n;
  if (micros <= lastMicros) micros = lastMicros + 1n;
  lastMicros = micros;
  let value = (micros << 10n) | clockId;
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = alphabet[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

export const tidPattern = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/;
