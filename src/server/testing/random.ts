/** A repeatable sequence of numbers in [0, 1), for tests that try many generated cases and must fail the same way. */
export function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}
