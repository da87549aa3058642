import { createElement } from "react";
import { Button } from "./Button";
import { List } from "./list.jsx";

export const view = createElement("main", null, Button({ label: "Go" }), List({ items: ["a", "b"] }));
