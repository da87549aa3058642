import { greet } from "../lib/greet";
import { nothing } from "./does-not-exist";

greet(String(nothing));
