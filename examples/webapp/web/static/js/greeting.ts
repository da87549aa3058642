// The heading the script writes over the server-rendered one. Edit it while
// `make dev` runs: the page reloads with the new text.
export const greeting = "Fresh from the oven";
