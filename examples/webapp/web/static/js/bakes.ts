// Loading and rendering the list of today's bakes.
import { formatMinutes } from "./format";

/** A Bake is one entry of data/bakes.json. */
export interface Bake {
  name: string;
  flour: string;
  minutes: number;
  temperature: number;
  icon: "wheat" | "rye" | "croissant";
}

function isBake(v: unknown): v is Bake {
  const b = v as Bake;
  return (
    typeof b === "object" && b !== null &&
    typeof b.name === "string" && typeof b.flour === "string" &&
    typeof b.minutes === "number" && typeof b.temperature === "number" &&
    ["wheat", "rye", "croissant"].includes(b.icon)
  );
}

/** loadBakes fetches and checks the list. */
export async function loadBakes(url: string): Promise<Bake[]> {
  const res = await fetch(url);
  if (!res.ok) {
    throw new Error(`${url}: HTTP ${res.status}`);
  }
  const data: unknown = await res.json();
  if (!Array.isArray(data) || !data.every(isBake)) {
    throw new Error(`${url}: not a list of bakes`);
  }
  return data;
}

/**
 * renderBakes replaces the children of list with one card per bake. icons
 * maps an icon name to its URL, as "wheat=/static/…svg rye=…".
 */
export function renderBakes(list: HTMLElement, bakes: Bake[], icons: string): void {
  const urls = new Map(icons.split(" ").filter(Boolean).map((kv) => kv.split("=", 2) as [string, string]));
  list.replaceChildren(
    ...bakes.map((b) => {
      const li = document.createElement("li");
      li.className = "bake";
      const img = document.createElement("img");
      img.src = urls.get(b.icon) ?? "";
      img.alt = "";
      img.width = 40;
      img.height = 40;
      const name = document.createElement("h3");
      name.textContent = b.name;
      const facts = document.createElement("p");
      facts.textContent = `${b.flour} · ${formatMinutes(b.minutes)} at ${b.temperature} °C`;
      li.append(img, name, facts);
      return li;
    }),
  );
}
