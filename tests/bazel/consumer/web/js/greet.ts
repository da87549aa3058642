// Greetings by language; the strings keep the bundle large enough for its
// precompressed variants to be worth keeping.
const greetings: Record<string, string> = {
  en: "Hello and welcome to the consumer workspace",
  fr: "Bonjour et bienvenue dans l'espace de travail du consommateur",
  de: "Hallo und willkommen im Arbeitsbereich des Verbrauchers",
  es: "Hola y bienvenido al espacio de trabajo del consumidor",
  it: "Ciao e benvenuto nello spazio di lavoro del consumatore",
  pt: "Olá e bem-vindo ao espaço de trabalho do consumidor",
};

export function greet(name: string, lang: string = "en"): string {
  const words: string[] = [greetings[lang] ?? greetings.en, name];
  return words.join(", ");
}
