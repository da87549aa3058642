let a: number = 1;
let a: number = 2;
let b = ;
