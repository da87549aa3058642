import { Unit, withUnit } from "./format";

export interface Greeting {
  text: string;
  size: number;
  css: string;
}

export function greet(name: string, unit: Unit = Unit.Px): Greeting {
  const size = name.length * 4;
  return { text: `Hello, ${name}!`, size, css: withUnit(size, unit) };
}
