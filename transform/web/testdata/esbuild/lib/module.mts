export const answer: number = 42;
export default answer satisfies number;
