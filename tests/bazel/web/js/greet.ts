// A module that app.ts imports; it is bundled into app.js.
export interface Visitor {
  name: string;
  visits: number;
}

export function greet(visitor: Visitor): string {
  const plural: string = visitor.visits === 1 ? "visit" : "visits";
  return `Hello, ${visitor.name}: ${visitor.visits} ${plural} so far`;
}
