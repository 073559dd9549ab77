/** 64-bit FNV-1a offset basis, as four 16-bit limbs, lowest first. */
const OFFSET_BASIS = [0x2325, 0x8422, 0x9ce4, 0xcbf2] as const;

/** The low part of the 64-bit FNV prime 0x100000001b3; its high part is 2^40, a shift. */
const PRIME_LOW = 0x1b3;

/**
 * 64-bit FNV-1a of the UTF-8 bytes of `text`, as 16 lowercase hex digits. Computed on 16-bit
 * limbs with plain numbers rather than BigInt, so hashing a large test log stays fast.
 */
export function fnv1a64(text: string): string {
  let [h0, h1, h2, h3] = OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(text)) {
    h0 ^= byte;
    // h * prime = h * 0x1b3 + (h << 40); the shift moves limb i to limb i + 2, 8 bits up.
    const t0 = h0 * PRIME_LOW;
    const t1 = h1 * PRIME_LOW + Math.floor(t0 / 0x10000);
    const t2 = h2 * PRIME_LOW + h0 * 0x100 + Math.floor(t1 / 0x10000);
    const t3 = h3 * PRIME_LOW + h1 * 0x100 + Math.floor(t2 / 0x10000);
    h0 = t0 % 0x10000;
    h1 = t1 % 0x10000;
    h2 = t2 % 0x10000;
    h3 = t3 % 0x10000;
  }
  return [h3, h2, h1, h0].map((limb) => limb.toString(16).padStart(4, "0")).join("");
}
