import data from "../../minify/data.json";

console.log(data);
