export enum Unit {
  Px = "px",
  Rem = "rem",
}

export function withUnit(n: number, unit: Unit): string {
  return `${n}${unit}`;
}

export function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n ?? lo));
}

export class Counter {
  #count = 0;
  constructor(private readonly step: number = 1) {}
  next(): number {
    this.#count += this.step;
    return this.#count;
  }
}
