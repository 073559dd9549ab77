// add() and mul() each have a bug for the demo's agent to fix.
export const add = (a, b) => a - b;
export const mul = (a, b) => a + b;
