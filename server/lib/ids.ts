import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A Standard Webhooks signing secret (`whsec_` + 24 random bytes, base64): partners' endpoints and channels. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Random base62 string; rejection sampling keeps every character equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

// Ids draw their random bytes from a pool refilled 4 KiB at a time: a randomBytes call per id cost
// ~5 µs, paid 5,000 times by a 5,000-ticket request. Secrets (randomBase62) never use the pool.
let pool = Buffer.alloc(0);
let used = 0;

/** Our own opaque ids: a short type prefix and 20 random base62 characters (~119 bits). */
export function newId(prefix: string): string {
  let out = '';
  while (out.length < 20) {
    if (used === pool.length) {
      pool = randomBytes(4096);
      used = 0;
    }
    const byte = pool[used++];
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return `${prefix}_${out}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
