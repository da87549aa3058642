// A TypeScript file with a syntax error on line 4.
export function ok(n: number): number {
  return n + 1;
}  const x: = 3;
