// What a text of a given length could show of an output's facts at best, roughly: the yardstick
// for a recall target (is 0.80 at 500 characters near what any honest text can reach?).

/** Characters each part needs beside its own text: a separator, or the label that says which side a value is. */
const PART_COST = {
  test: 2,
  file: 0,
  line: 2,
  expected: 10,
  received: 6,
  keyword: 3,
  rule: 1,
};

/**
 * `{found, total}` for a text of `cap` characters that writes each distinct part of `facts` once
 * (a value, a file or a keyword several facts share counts for all of them), after a headline
 * counting `failures`, choosing parts by how many facts they serve per character. It ignores
 * the structure a reader needs (which name goes with which place) and the savings of brief forms
 * (`…:N`, `… > leaf`), so it is an estimate, not a bound.
 */
export function packingEstimate(facts, cap, failures = facts.length) {
  const parts = new Map();
  let total = 0;
  for (const fact of facts) {
    for (const [part, extra] of Object.entries(PART_COST)) {
      const value = fact[part];
      if (value === null || value === undefined) continue;
      total += 1;
      const key = `${part}\u0000${value}`;
      const known = parts.get(key) ?? { uses: 0, cost: String(value).length + extra };
      parts.set(key, { ...known, uses: known.uses + 1 });
    }
  }
  let left = cap - `Test failed: ${failures} failing tests`.length;
  let found = 0;
  const byWorth = [...parts.values()].sort((a, b) => b.uses / b.cost - a.uses / a.cost);
  for (const { uses, cost } of byWorth) {
    if (cost > left) continue;
    left -= cost;
    found += uses;
  }
  return { found, total };
}
