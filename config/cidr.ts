/** IPv4 CIDR arithmetic for the network rules (ranges as [first, last] unsigned 32-bit). */

export interface Cidr {
  readonly text: string;
  readonly first: number;
  readonly last: number;
  readonly prefix: number;
  /** Whether the address is the network address of its prefix (10.0.0.0/16, not 10.0.1.0/16). */
  readonly aligned: boolean;
}

/** Parses `a.b.c.d/n` (the schema has already checked the syntax). */
export function parseCidr(text: string): Cidr {
  const [address, prefixText] = text.split("/");
  const prefix = Number(prefixText);
  const value = address.split(".").reduce((acc, octet) => acc * 256 + Number(octet), 0);
  const size = 2 ** (32 - prefix);
  const first = Math.floor(value / size) * size;
  return { text, first, last: first + size - 1, prefix, aligned: first === value };
}

export function contains(outer: Cidr, inner: Cidr): boolean {
  return outer.first <= inner.first && inner.last <= outer.last;
}

export function overlaps(a: Cidr, b: Cidr): boolean {
  return a.first <= b.last && b.first <= a.last;
}

/** The aligned form of a CIDR, for "did you mean" messages. */
export function networkOf(cidr: Cidr): string {
  const octets = [24, 16, 8, 0].map((shift) => Math.floor(cidr.first / 2 ** shift) % 256);
  return `${octets.join(".")}/${cidr.prefix}`;
}
