// A TypeScript file with a syntax error on line 3, for the bad-input checks.
export function broken(name: string): string {
  return "hello, " + name +;
}
