// Entry point of the example bundle: imports code, CSS, an image and a
// font (through the CSS).
import { greet, type Greeting } from "./lib/greet";
import { clamp, Unit } from "./lib/format";
import logoURL from "./img/logo.png";
import "./styles/app.css";

declare const DEBUG: boolean;

const greeting: Greeting = greet("bakefs", Unit.Px);

export function mount(root: HTMLElement): void {
  const img = document.createElement("img");
  img.src = logoURL;
  img.alt = greeting.text;
  root.append(img, String(clamp(greeting.size, 8, 48)));
  if (DEBUG) {
    console.log("mounted", greeting);
  }
}
